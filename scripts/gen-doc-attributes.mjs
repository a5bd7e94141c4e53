// Maintenance step (not part of the build): reads the CloudFormation user guide's source (github
// awsdocs/aws-cloudformation-user-guide, doc_source/aws-resource-*.md) at a commit and writes
// resources/documentedAttributes.json: each type's "Return values" (the Fn::GetAtt attribute names and the Ref text),
// the sample value the guide shows for an attribute, the properties whose update requires replacement and whether it has Tags, as AWS documents them, with the
// source commit. Run: node scripts/gen-doc-attributes.mjs <git dir> <commit>.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const [gitDir, commit] = process.argv.slice(2);
if (!gitDir || !commit) throw new Error('usage: node scripts/gen-doc-attributes.mjs <git dir> <commit>');

const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const files = git('ls-tree', '-r', '--name-only', commit, 'doc_source')
  .split('\n')
  .filter((f) => /\/aws-resource-[^/]+\.md$/.test(f));

const TITLE = /^# (AWS::[A-Za-z0-9]+::[A-Za-z0-9]+)/m;
const ATTRIBUTE = /^`([^`]+)`\s*<a name="[^"]*-fn::getatt"><\/a>/gm;
// An attribute's description, up to the next attribute or the end of the section.
const DESCRIBED = /^`([^`]+)`\s*<a name="[^"]*-fn::getatt"><\/a>\n([\s\S]*?)(?=^`[^`]+`\s*<a name=|(?![\s\S]))/gm;

/**
 * The sample value a description shows (`For example, \`arn:aws:ecr:…\``): the first code span that looks like a
 * value (it has digits or separators and no spaces), not a type name, placeholder or pattern.
 */
function sampleOf(description) {
  const text = description.replace(/\\/g, '');
  for (const [, code] of text.matchAll(/`([^`]+)`/g)) {
    const value = code.trim();
    if (/\s/.test(value) || value.startsWith('AWS::') || value.startsWith('^') || /[<>{}]/.test(value)) continue;
    if (/[:/.\-_0-9]/.test(value)) return value;
  }
  return undefined;
}

function returnValues(text) {
  const start = text.indexOf('## Return values');
  if (start < 0) return { attributes: [], samples: {}, ref: undefined };
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const attributes = [...section.matchAll(ATTRIBUTE)].map((m) => m[1]);
  const samples = {};
  for (const [, name, description] of section.matchAll(DESCRIBED)) {
    const sample = sampleOf(description);
    if (sample !== undefined && !(name in samples)) samples[name] = sample;
  }
  const refAt = section.indexOf('### Ref');
  const refText =
    refAt < 0
      ? undefined
      : section
          .slice(refAt, section.indexOf('###', refAt + 4) >>> 0)
          .split('\n')
          .slice(1)
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim();
  return {
    attributes,
    samples,
    ref: refText
      ?.replace(/\\/g, '')
      .replace(/For more information about using the `?Ref`? ?function.*$/i, '')
      .trim(),
  };
}

// `PropName`  <a name="cfn-…"></a> … *Update requires*: [Replacement] / [Some interruptions] / [No interruption]
const PROPERTY = /^`([A-Za-z0-9]+)`\s*<a name="cfn-[^"]*"><\/a>([\s\S]*?)(?=^`[A-Za-z0-9]+`\s*<a name=|^## )/gm;

/** Top-level properties whose change the guide says requires replacement (and those it says sometimes do). */
function replacement(text) {
  const start = text.indexOf('## Properties');
  const end = text.indexOf('## Return values');
  const section = text.slice(start, end < 0 ? undefined : end) + '\n## ';
  const always = [];
  const sometimes = [];
  for (const [, name, body] of section.matchAll(PROPERTY)) {
    const update = /\*Update requires\*: \[([^\]]+)\]/.exec(body)?.[1];
    if (update === 'Replacement') always.push(name);
    else if (/Updates are not supported|Conditional|Some interruptions/.test(update ?? '') && /Replacement/.test(body))
      sometimes.push(name);
  }
  return { always, sometimes };
}

const types = {};
for (const file of files) {
  const text = git('show', `${commit}:${file}`);
  const type = TITLE.exec(text)?.[1];
  if (!type) continue;
  const { attributes, samples, ref } = returnValues(text);
  const { always } = replacement(text);
  types[type] = {
    attributes: [...new Set(attributes)].sort(),
    ...(ref ? { ref } : {}),
    ...(Object.keys(samples).length ? { samples } : {}),
    ...(always.length ? { replacement: always.sort() } : {}),
    tags: /^`Tags`\s*<a name=/m.test(text),
  };
}
const out = {
  source: `github.com/awsdocs/aws-cloudformation-user-guide@${commit}`,
  count: Object.keys(types).length,
  types,
};
writeFileSync(
  join(ROOT, 'resources', 'documentedAttributes.json'),
  JSON.stringify(out, null, 0).replace(/\},"/g, '},\n"') + '\n',
);
console.log(
  `documentedAttributes.json: ${out.count} types, ${Object.values(types).reduce((n, t) => n + t.attributes.length, 0)} attributes`,
);
