// How the console talks to the server: JSON reads and writes under /_cfn-local/, the control token when the server
// has one (kept for this tab only), and the live feed read from a streamed response.
export const BASE = '/_cfn-local';
const TOKEN_KEY = 'cfn-local-control-token';

export class Unauthorized extends Error {}

/** Views that want the feed's messages (a stack's events) register here; the app feeds them. */
export const feedListeners = new Set<(msg: FeedMessage) => void>();

export function token(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(value: string): void {
  sessionStorage.setItem(TOKEN_KEY, value);
}

function headers(json: boolean): Record<string, string> {
  const t = token();
  return { ...(t ? { authorization: `Bearer ${t}` } : {}), ...(json ? { 'content-type': 'application/json' } : {}) };
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: headers(body !== undefined),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 401) throw new Unauthorized('the server needs its control token');
  const data = (await res.json()) as T & { message?: string };
  if (!res.ok) throw new Error(data.message ?? `${method} ${path}: HTTP ${res.status}`);
  return data;
}

export const get = <T>(path: string) => call<T>('GET', path);

/**
 * Reads the server-sent events of /_cfn-local/feed through fetch (EventSource cannot send the token), reconnecting
 * after a drop; the returned function stops it.
 */
export function follow(onMessage: (msg: FeedMessage) => void, onState: (live: boolean) => void): () => void {
  const stop = new AbortController();
  const stopped = () => stop.signal.aborted;
  const run = async () => {
    while (!stopped()) {
      try {
        const res = await fetch(`${BASE}/feed`, { headers: headers(false), signal: stop.signal });
        if (!res.ok || !res.body) throw new Error(`feed: HTTP ${res.status}`);
        onState(true);
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          const blocks = buffer.split('\n\n');
          buffer = blocks.pop() ?? '';
          for (const block of blocks) {
            const data = block
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (data) onMessage(JSON.parse(data) as FeedMessage);
          }
        }
      } catch {
        // dropped or refused: say so, then try again
      }
      onState(false);
      if (!stopped()) await new Promise((r) => setTimeout(r, 1000));
    }
  };
  void run();
  return () => stop.abort();
}

export interface StackRow {
  StackId: string;
  StackName: string;
  Account: string;
  Region: string;
  StackStatus: string;
  StackStatusReason?: string;
  CreationTime: string;
  LastUpdatedTime?: string;
  DeletionTime?: string;
  ParentId?: string;
  RootId?: string;
  Description?: string;
}

export interface StackEvent {
  StackId: string;
  EventId: string;
  StackName: string;
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceType: string;
  Timestamp: string;
  ResourceStatus: string;
  ResourceStatusReason?: string;
  OperationId?: string;
  Seq: number;
}

export type FeedMessage =
  | { kind: 'stack'; stack: StackRow }
  | { kind: 'event'; event: StackEvent }
  | { kind: 'reset'; account?: string; region?: string }
  | { kind: 'drift'; stackId: string; status: string };

/** A stack set as /_cfn-local/stack-sets shows it: ListStackSets' summary, its instances and newest operations. */
export interface StackSetRow {
  StackSetName: string;
  StackSetId: string;
  Status: string;
  PermissionModel: string;
  DriftStatus?: string;
  Account: string;
  Region: string;
  Instances: {
    Account: string;
    Region: string;
    StackId?: string;
    Status: string;
    StatusReason?: string;
    StackInstanceStatus?: { DetailedStatus?: string };
    OrganizationalUnitId?: string;
    DriftStatus?: string;
  }[];
  Operations: {
    OperationId: string;
    Action: string;
    Status: string;
    CreationTimestamp: string;
    EndTimestamp?: string;
    Results: { Account: string; Region: string; Status: string; StatusReason?: string }[];
  }[];
}
