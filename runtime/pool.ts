// Warm execution environments, as Lambda keeps them: an idle environment of the same function, version, code and
// configuration serves the next invocation; concurrent invocations each get their own; an environment idle for
// IDLE_MS is stopped; code or configuration that changed retires the older environments.
import type { Environment } from './environment.js';

/** How long an idle environment is kept (Lambda keeps them for minutes, undocumented; 5 here). */
export const IDLE_MS = 5 * 60_000;
/** The most environments alive at once, busy or idle (Lambda's account concurrency is 1000; one machine is less). */
export const MAX_ENVIRONMENTS = 64;

export class Pool {
  private readonly idle = new Map<string, Environment[]>();
  private readonly busy = new Set<Environment>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly idleMs = IDLE_MS) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(idleMs, 30_000));
    this.sweeper.unref();
  }

  get size(): number {
    let n = this.busy.size;
    for (const list of this.idle.values()) n += list.length;
    return n;
  }

  /** An idle environment for `key`, or undefined; environments of `family` under another key are stopped. */
  take(family: string, key: string): Environment | undefined {
    for (const [k, list] of this.idle) {
      if (k !== key && k.startsWith(`${family}|`)) {
        list.forEach((e) => e.kill());
        this.idle.delete(k);
      }
    }
    const list = this.idle.get(key) ?? [];
    let env = list.pop();
    while (env && !env.alive) env = list.pop();
    if (env) this.busy.add(env);
    return env;
  }

  /** A new environment counts as busy from its start. */
  add(env: Environment): void {
    this.busy.add(env);
  }

  /** Back to idle after an invocation (a dead one is dropped). */
  release(key: string, env: Environment): void {
    this.busy.delete(env);
    if (!env.alive) return;
    env.lastUsed = Date.now();
    const list = this.idle.get(key) ?? [];
    list.push(env);
    this.idle.set(key, list);
  }

  sweep(now = Date.now()): void {
    for (const [key, list] of this.idle) {
      const keep = list.filter((e) => e.alive && now - e.lastUsed < this.idleMs);
      list.filter((e) => !keep.includes(e)).forEach((e) => e.kill());
      if (keep.length) this.idle.set(key, keep);
      else this.idle.delete(key);
    }
  }

  closeAll(): void {
    clearInterval(this.sweeper);
    for (const list of this.idle.values()) list.forEach((e) => e.kill());
    this.busy.forEach((e) => e.kill());
    this.idle.clear();
    this.busy.clear();
  }
}
