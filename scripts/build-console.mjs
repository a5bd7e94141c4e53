// Builds the web console (console/src, Preact + dagre) into dist/console: app.js (one minified ES module), app.css,
// index.html and manifest.json, which lists the files server/routes/console.ts serves and their gzipped sizes.
// Run by scripts/bundle.mjs (npm run build); `node scripts/build-console.mjs` alone rebuilds the console only.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const OUT = 'dist/console';
const FILES = ['index.html', 'app.js', 'app.css'];

export async function buildConsole() {
  mkdirSync(OUT, { recursive: true });
  await build({
    entryPoints: ['console/src/main.tsx'],
    outfile: `${OUT}/app.js`,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  copyFileSync('console/src/index.html', `${OUT}/index.html`);
  await build({ entryPoints: ['console/src/app.css'], outfile: `${OUT}/app.css`, minify: true, logLevel: 'warning' });
  const gzipped = Object.fromEntries(FILES.map((f) => [f, gzipSync(readFileSync(`${OUT}/${f}`)).length]));
  const total = Object.values(gzipped).reduce((a, b) => a + b, 0);
  writeFileSync(`${OUT}/manifest.json`, `${JSON.stringify({ files: FILES, gzipped, total }, null, 2)}\n`);
  return total;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const total = await buildConsole();
  process.stdout.write(`dist/console: ${(total / 1024).toFixed(1)} KiB gzipped\n`);
}
