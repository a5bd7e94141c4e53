// The change feed: stack rows, events and drift detections as storage writes them, for the console's live view (server/routes/
// consoleFeed.ts). A listener hears of a write when it is made; it waits for the commit (Store.afterCommit) itself.
import type { StackRecord } from './stacks.js';
import type { EventRecord } from './events.js';
import type { DetectionStatus } from './drifts.js';

export type Change =
  | { kind: 'stack'; stack: StackRecord }
  | { kind: 'event'; event: EventRecord }
  | { kind: 'reset'; account?: string; region?: string }
  | { kind: 'drift'; stackId: string; status: DetectionStatus };

export class ChangeFeed {
  private readonly listeners = new Set<(change: Change) => void>();

  /** Whether anyone listens: writers skip building a change when no one does. */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  subscribe(listener: (change: Change) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: Change): void {
    for (const listener of this.listeners) listener(change);
  }
}
