// The web console (docs/console.md): the page and its assets under /_cfn-local/console, built into dist/console by
// `npm run build` (scripts/build-console.mjs), and the redirect that sends a browser opening `/` there.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PREFIX } from './controlHttp.js';
import { registerConsoleApi } from './consoleApi.js';
import { registerConsoleStackSets } from './consoleStackSets.js';
import { registerConsoleBackend } from './consoleBackend.js';
import { registerConsoleFeed } from './consoleFeed.js';
import type { ControlDeps } from './controlHttp.js';

export const CONSOLE_PATH = `${PREFIX}/console`;

// The bundle runs from dist/, the compiled server from dist/server/routes/, the source (vitest, tsx) from server/routes/.
const CANDIDATE_DIRS = ['./console/', '../../console/', '../../dist/console/'];
const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  json: 'application/json',
};

interface Asset {
  type: string;
  bytes: Buffer;
}

/** The built files, read once: the build's manifest.json lists them, and nothing else is ever served. */
function loadAssets(): Map<string, Asset> | undefined {
  for (const candidate of CANDIDATE_DIRS) {
    const dir = new URL(candidate, import.meta.url);
    let names: string[];
    try {
      names = (JSON.parse(readFileSync(new URL('manifest.json', dir), 'utf8')) as { files: string[] }).files;
    } catch {
      continue;
    }
    const assets = new Map<string, Asset>();
    for (const name of names) {
      const type = CONTENT_TYPES[name.split('.').pop()!] ?? 'application/octet-stream';
      assets.set(name, { type, bytes: readFileSync(fileURLToPath(new URL(name, dir))) });
    }
    return assets;
  }
  return undefined;
}

/** A browser's page load: GET of `/` asking for HTML and carrying no AWS signature (SDKs and the CLI never ask so). */
function isBrowserAtRoot(req: FastifyRequest): boolean {
  if (req.method !== 'GET' || req.url !== '/' || req.headers.authorization) return false;
  return (req.headers.accept ?? '').includes('text/html');
}

export function registerConsole(app: FastifyInstance, deps: ControlDeps): void {
  let assets: Map<string, Asset> | undefined;
  app.addHook('onRequest', async (req, reply) => {
    if (isBrowserAtRoot(req)) return reply.redirect(`${CONSOLE_PATH}/`, 302);
  });
  const serve = async (req: FastifyRequest<{ Params: { '*'?: string } }>, reply: import('fastify').FastifyReply) => {
    assets ??= loadAssets();
    if (!assets)
      return reply.status(503).send({
        error: 'ConsoleNotBuilt',
        message: 'the console is not built: run `npm run build` (dist/console/manifest.json is missing)',
      });
    const name = req.params['*'] || 'index.html';
    const asset = assets.get(name);
    if (!asset) return reply.status(404).send({ error: 'NotFound', message: `no console file ${name.slice(0, 200)}` });
    return reply.type(asset.type).header('cache-control', 'no-cache').send(asset.bytes);
  };
  app.get(CONSOLE_PATH, serve);
  app.get(`${CONSOLE_PATH}/*`, serve);
  registerConsoleApi(app, deps);
  registerConsoleStackSets(app, deps);
  registerConsoleBackend(app, deps);
  registerConsoleFeed(app, deps.store);
}
