// The clock and timers every wait of an operation runs on (DelayMs, CreationPolicy and WaitCondition timeouts,
// custom resource replies): the real ones by default; a test hands the app its own to move time itself.

export interface Timers {
  /** Epoch milliseconds, what deadlines are computed from. */
  now(): number;
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const REAL_TIMERS: Timers = {
  now: () => Date.now(),
  setTimeout: (fire, ms) => setTimeout(fire, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
