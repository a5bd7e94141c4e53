// Reads the Dockerfile's final stage (ENV, CMD, HEALTHCHECK, …) so tests run exactly what the image would run.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Instruction {
  keyword: string;
  args: string;
}

export interface RuntimeStage {
  instructions: Instruction[];
  env: Record<string, string>;
  /** CMD in exec form. */
  cmd: string[];
  /** HEALTHCHECK's CMD in exec form. */
  healthcheck: string[];
  user?: string;
  expose: string[];
  volumes: string[];
}

/** Splits a Dockerfile into instructions: comments dropped, backslash continuations joined. */
export function instructionsOf(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword] = line.split(/\s+/, 1);
      return { keyword: keyword.toUpperCase(), args: line.slice(keyword.length).trim() };
    });
}

function execForm(args: string, what: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string'))
    throw new Error(`${what} is not in exec form: ${args}`);
  return parsed;
}

/** `ENV A=1 B=2` (the only form the Dockerfile uses; quotes are stripped). */
function envPairs(args: string): [string, string][] {
  return [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)].map((m) => [m[1], m[2].replace(/^"|"$/g, '')]);
}

export function runtimeStage(path = `${ROOT}Dockerfile`): RuntimeStage {
  const all = instructionsOf(readFileSync(path, 'utf8'));
  const lastFrom = all.map((i) => i.keyword).lastIndexOf('FROM');
  const instructions = all.slice(lastFrom);
  const of = (keyword: string) => instructions.filter((i) => i.keyword === keyword);
  const cmd = of('CMD').at(-1);
  const health = of('HEALTHCHECK').at(-1);
  if (!cmd) throw new Error('the Dockerfile has no CMD in its final stage');
  if (!health) throw new Error('the Dockerfile has no HEALTHCHECK in its final stage');
  const healthCmd = /\bCMD\s+(\[.*\])\s*$/.exec(health.args);
  if (!healthCmd) throw new Error(`HEALTHCHECK has no exec-form CMD: ${health.args}`);
  return {
    instructions,
    env: Object.fromEntries(of('ENV').flatMap((i) => envPairs(i.args))),
    cmd: execForm(cmd.args, 'CMD'),
    healthcheck: execForm(healthCmd[1], 'HEALTHCHECK CMD'),
    user: of('USER').at(-1)?.args,
    expose: of('EXPOSE').flatMap((i) => i.args.split(/\s+/)),
    volumes: of('VOLUME').flatMap((i) => (i.args.startsWith('[') ? execForm(i.args, 'VOLUME') : i.args.split(/\s+/))),
  };
}
