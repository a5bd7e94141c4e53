// The crash campaign's workload (scripts/crash.mjs): each round starts a random mix of stack operations (creates,
// updates, rollbacks, deletes, a delete during a create, nested trees, a Lambda function and its invocations) and S3
// uploads (single and multipart, overwrites, deletes), and records what the server acknowledged. After a SIGKILL,
// what was acknowledged must have survived; what was in flight may have happened or not, never half.
import { createHash, randomBytes } from 'node:crypto';
import {
  CloudFormationClient,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CHILD_TEMPLATES, TEMPLATE_BUCKET, templateOf } from './templates.mjs';

export const DATA_BUCKET = 'crash-data';
/** The statuses a finished operation leaves that hold the template's resources. */
export const HOLDING = ['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE'];
const STACKS = [
  ['flat-0', 'flat'],
  ['flat-1', 'flat'],
  ['flat-2', 'flat'],
  ['tree-0', 'tree'],
  ['fn-0', 'fn'],
];
const KEYS = ['k0', 'k1', 'k2', 'dir/k3', 'dir/sub/k4', 'k5', 'k6', 'k7'];
const MULTIPART_KEYS = ['mpu/a', 'mpu/b'];
const SIZES = [0, 1, 1000, 65_536, 300_000, 1 << 20, 3 << 20];
const md5 = (bytes) => createHash('md5').update(bytes).digest('hex');
const credentials = { accessKeyId: 'crash', secretAccessKey: 'crash' };
/** A 4xx is the server refusing the call: nothing started. Anything else (a reset by the kill) may have. */
const refused = (err) => (err?.$metadata?.httpStatusCode ?? 0) >= 400 && err.$metadata.httpStatusCode < 500;

export class Workload {
  /**
   * name → { kind, id?, status: as last seen ('GONE': absent or deleted), value: its Value then, allowed: the statuses
   * it may be in at the next check, values: status → the Values it may hold in that status }
   */
  stacks = new Map(
    STACKS.map(([name, kind]) => [
      name,
      { name, kind, ids: new Set(), status: 'GONE', allowed: new Set(['GONE']), values: {} },
    ]),
  );
  /** key → the MD5s (null: no object) the key may hold after a kill. */
  objects = new Map([...KEYS, ...MULTIPART_KEYS].map((k) => [k, new Set([null])]));
  /** Process ids of Lambda environments seen answering, which must not outlive a killed server. */
  pids = new Set();
  /** What each round started, for reproductions. */
  log = [];
  counts = {};
  touchedKeys = new Set();
  touchedStacks = new Set();
  serial = 0;

  constructor(random) {
    this.random = random;
  }

  pick(list) {
    return list[Math.floor(this.random() * list.length)];
  }

  connect(endpoint) {
    const common = { endpoint, region: 'us-east-1', credentials, maxAttempts: 1 };
    this.cf = new CloudFormationClient(common);
    this.s3 = new S3Client({ ...common, forcePathStyle: true });
    this.lambda = new LambdaClient(common);
    this.endpoint = endpoint;
  }

  disconnect() {
    for (const c of [this.cf, this.s3, this.lambda]) c?.destroy();
  }

  /** The buckets and the nested tree's lower templates, before the first kill. */
  async setUp() {
    for (const Bucket of [TEMPLATE_BUCKET, DATA_BUCKET]) await this.s3.send(new CreateBucketCommand({ Bucket }));
    for (const [Key, Body] of Object.entries(CHILD_TEMPLATES))
      await this.s3.send(new PutObjectCommand({ Bucket: TEMPLATE_BUCKET, Key, Body }));
  }

  count(kind) {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
  }

  /** Starts this round's operations; each promise settles when its work is acknowledged and done, or cut. */
  round(n) {
    this.roundLog = [];
    this.busyKeys = new Set();
    this.log.push({ round: n, started: this.roundLog });
    const ops = [];
    const names = [...this.stacks.keys()].filter(() => this.random() < 0.45);
    for (const name of names) ops.push(this.stackOp(this.stacks.get(name)));
    for (let i = Math.floor(this.random() * 3); i > 0; i--) ops.push(this.put());
    if (this.random() < 0.12) ops.push(this.multipart());
    if (this.random() < 0.15) ops.push(this.deleteObject());
    const fn = this.stacks.get('fn-0');
    if (HOLDING.includes(fn.status) && this.random() < 0.6) ops.push(this.invokes(fn));
    let running = ops.length;
    const tracked = ops.map((p) => p.finally(() => running--));
    return { done: Promise.allSettled(tracked), inFlight: () => running };
  }

  note(line) {
    this.roundLog?.push(line);
  }

  /**
   * Records an operation's possible outcomes: once acknowledged, the statuses `next` (and for each, the Value its
   * parameters must hold); if the kill cut the call, those or the ones before.
   */
  async started(stack, next, call, values = {}) {
    try {
      const out = await call();
      stack.allowed = new Set(next);
      stack.values = Object.fromEntries(Object.entries(values).map(([s, v]) => [s, new Set([v])]));
      return out;
    } catch (err) {
      if (refused(err)) {
        this.note(`${stack.name}: refused ${err.name}: ${err.message}`);
        return undefined;
      }
      for (const s of next) stack.allowed.add(s);
      for (const [s, v] of Object.entries(values)) (stack.values[s] ??= new Set()).add(v);
      throw err;
    }
  }

  async stackOp(stack) {
    this.touchedStacks.add(stack.name);
    const value = `v${++this.serial}`;
    const fails = this.random() < 0.25;
    const Parameters = [{ ParameterKey: 'Value', ParameterValue: value }];
    const TemplateBody = templateOf(stack.kind, fails);
    if (stack.status === 'GONE') {
      this.count(fails ? 'create (rolled back)' : 'create');
      this.note(`${stack.name}: create ${value}${fails ? ' failing' : ''}`);
      const next = fails ? ['ROLLBACK_COMPLETE'] : ['CREATE_COMPLETE', 'ROLLBACK_COMPLETE'];
      const out = await this.started(
        stack,
        next,
        () => this.cf.send(new CreateStackCommand({ StackName: stack.name, TemplateBody, Parameters })),
        { CREATE_COMPLETE: value },
      );
      if (out?.StackId) stack.ids.add(out.StackId);
      if (out && this.random() < 0.15) {
        this.count('delete during create');
        this.note(`${stack.name}: delete during create`);
        await this.started(stack, ['GONE'], () => this.cf.send(new DeleteStackCommand({ StackName: stack.name })));
      }
    } else if (stack.status === 'ROLLBACK_COMPLETE' || this.random() < 0.3) {
      this.count('delete');
      this.note(`${stack.name}: delete`);
      await this.started(stack, ['GONE'], () => this.cf.send(new DeleteStackCommand({ StackName: stack.name })));
    } else {
      this.count(fails ? 'update (rolled back)' : 'update');
      this.note(`${stack.name}: update ${stack.value} → ${value}${fails ? ' failing' : ''}`);
      const next = fails ? ['UPDATE_ROLLBACK_COMPLETE'] : ['UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE'];
      await this.started(
        stack,
        next,
        () => this.cf.send(new UpdateStackCommand({ StackName: stack.name, TemplateBody, Parameters })),
        { UPDATE_COMPLETE: value, UPDATE_ROLLBACK_COMPLETE: stack.value },
      );
    }
    await this.settled(stack.name);
  }

  /** Polls as a client does until the stack leaves *_IN_PROGRESS (or the kill cuts the call). */
  async settled(StackName) {
    for (;;) {
      const { Stacks } = await this.cf.send(new DescribeStacksCommand({ StackName })).catch((err) => {
        if (refused(err)) return { Stacks: [{ StackStatus: 'DELETE_COMPLETE' }] };
        throw err;
      });
      if (!/_IN_PROGRESS$/.test(Stacks[0].StackStatus)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /**
   * Runs `call`, then narrows the key's possible bodies to `after` if acknowledged, or widens them if cut. One call
   * per key and round: two at once could be acknowledged in another order than the server applied them.
   */
  async objectCall(key, after, call) {
    this.touchedKeys.add(key);
    try {
      await call();
      this.objects.set(key, new Set([after]));
    } catch (err) {
      this.objects.get(key).add(after);
      throw err;
    }
  }

  /** A key no other call of this round uses, or undefined when all are taken. */
  freeKey(keys) {
    const free = keys.filter((k) => !this.busyKeys.has(k));
    const key = free.length ? this.pick(free) : undefined;
    if (key) this.busyKeys.add(key);
    return key;
  }

  async put() {
    const Key = this.freeKey(KEYS);
    if (!Key) return;
    const Body = randomBytes(this.pick(SIZES));
    this.count('PutObject');
    this.note(`s3: put ${Key} (${Body.length} bytes)`);
    return this.objectCall(Key, md5(Body), () =>
      this.s3.send(new PutObjectCommand({ Bucket: DATA_BUCKET, Key, Body })),
    );
  }

  async deleteObject() {
    const Key = this.freeKey(KEYS);
    if (!Key) return;
    this.count('DeleteObject');
    this.note(`s3: delete ${Key}`);
    return this.objectCall(Key, null, () => this.s3.send(new DeleteObjectCommand({ Bucket: DATA_BUCKET, Key })));
  }

  /** A 5 MiB part (S3's smallest but the last) and a small one, then the complete. */
  async multipart() {
    const Key = this.freeKey(MULTIPART_KEYS);
    if (!Key) return;
    const parts = [randomBytes(5 << 20), randomBytes(this.pick([1, 70_000]))];
    this.count('multipart upload');
    this.note(`s3: multipart ${Key}`);
    const Bucket = DATA_BUCKET;
    return this.objectCall(Key, md5(Buffer.concat(parts)), async () => {
      const { UploadId } = await this.s3.send(new CreateMultipartUploadCommand({ Bucket, Key }));
      const Parts = [];
      for (const [i, Body] of parts.entries()) {
        const { ETag } = await this.s3.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: i + 1, Body }));
        Parts.push({ ETag, PartNumber: i + 1 });
      }
      await this.s3.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }));
    });
  }

  /** Invokes the function until the kill, each call taking 0-150 ms inside its environment. */
  async invokes(stack) {
    this.count('Invoke loop');
    this.note('lambda: invokes');
    const FunctionName = stack.functionName;
    if (!FunctionName) return;
    for (let n = 0; n < 50; n++) {
      const Payload = JSON.stringify({ ms: Math.floor(this.random() * 150), n });
      const out = await this.lambda.send(new InvokeCommand({ FunctionName, Payload }));
      const answer = JSON.parse(Buffer.from(out.Payload ?? []).toString() || 'null');
      if (typeof answer?.pid === 'number') this.pids.add(answer.pid);
    }
  }
}
