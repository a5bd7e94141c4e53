// A function's code on disk: ZipFile text, a zip from the account's S3 (CDK assets, `aws cloudformation package`,
// SAM) or from UpdateFunctionCode, unpacked once per content into the runtime's folder; layers merged into one
// /opt-like folder per layer set, in order, later layers over earlier ones, as Lambda merges them into /opt.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { unzipSync } from 'fflate';
import type { Store } from '../storage/index.js';
import type { WorldResource } from '../storage/world.js';
import { ServiceError } from '../domain/serviceErrors.js';
import type { RuntimeFamily } from './contract.js';
import { CFN_RESPONSE_NODE, CFNRESPONSE_PY } from './cfnResponse.js';

/** Where a function's (or layer's) bytes come from. */
export type CodeSource =
  | { kind: 'inline'; text: string }
  | { kind: 'zip'; base64: string }
  | { kind: 's3'; bucket: string; key: string }
  | { kind: 'image'; uri: string };

/** The source a Code property (AWS::Lambda::Function Code, LayerVersion Content) and control-plane state name. */
export function sourceOf(code: Record<string, unknown>, zip?: { placeholder: string; base64: string }): CodeSource {
  if (zip && code.ZipFile === zip.placeholder) return { kind: 'zip', base64: zip.base64 };
  if (typeof code.ZipFile === 'string') return { kind: 'inline', text: code.ZipFile };
  if (typeof code.ImageUri === 'string') return { kind: 'image', uri: code.ImageUri };
  return { kind: 's3', bucket: String(code.S3Bucket ?? ''), key: String(code.S3Key ?? '') };
}

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 24);

async function s3Bytes(store: Store, account: string, bucket: string, key: string): Promise<Buffer> {
  const object = store.objects.get(account, bucket, key);
  if (!object) {
    throw new ServiceError(
      'InvalidParameterValueException',
      `Error occurred while GetObject. S3 Error Code: NoSuchKey. S3 Error Message: The specified key does not exist. (s3://${bucket}/${key})`,
      400,
      { Type: 'User' },
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of store.bodies.read(object.bodyId)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// Lambda's own interpreters, named by the shebangs of scripts built for it (the CDK's AWS CLI layer: /var/lang/bin/python).
const LAMBDA_SHEBANG = /^#!\/var\/lang\/bin\/(python3?|node)[^\n]*/;

/** A script for Lambda's /var/lang/bin interpreter runs on this machine's, found on PATH. */
function portable(bytes: Uint8Array): Uint8Array {
  if (bytes[0] !== 0x23 || bytes[1] !== 0x21) return bytes;
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const match = LAMBDA_SHEBANG.exec(head);
  if (!match) return bytes;
  const shebang = `#!/usr/bin/env ${match[1] === 'node' ? 'node' : 'python3'}`;
  return Buffer.concat([Buffer.from(shebang, 'latin1'), Buffer.from(bytes.subarray(match[0].length))]);
}

// Zip entries lose their mode in fflate: scripts (#!) and ELF binaries are made executable again (a layer's CLI).
function writeEntry(root: string, name: string, data: Uint8Array): void {
  const target = normalize(join(root, name));
  if (!target.startsWith(root)) return; // a "../" entry stays out, as unzip refuses it
  if (name.endsWith('/')) return void mkdirSync(target, { recursive: true });
  mkdirSync(dirname(target), { recursive: true });
  const bytes = portable(data);
  writeFileSync(target, bytes);
  const head = Buffer.from(bytes.subarray(0, 4)).toString('latin1');
  if (head.startsWith('#!') || head === '\x7fELF') chmodSync(target, 0o755);
}

function unzipInto(root: string, zip: Uint8Array, what: string): void {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip);
  } catch (err) {
    throw new ServiceError(
      'InvalidParameterValueException',
      `Could not unzip uploaded file. Please check your file, then try to upload again. (${what}: ${(err as Error).message})`,
      400,
      { Type: 'User' },
    );
  }
  for (const [name, bytes] of Object.entries(files)) writeEntry(root, name, bytes);
}

/** Inline code: index.js / index.py, with AWS's cfn-response / cfnresponse module beside it. */
function writeInline(root: string, family: RuntimeFamily, text: string): void {
  if (family === 'nodejs') {
    writeFileSync(join(root, 'index.js'), text);
    mkdirSync(join(root, 'node_modules', 'cfn-response'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'cfn-response', 'index.js'), CFN_RESPONSE_NODE);
  } else {
    writeFileSync(join(root, 'index.py'), text);
    writeFileSync(join(root, 'cfnresponse.py'), CFNRESPONSE_PY);
  }
}

/** Unpacks sources into `base/<key>` once (a half-written folder never stays: it is renamed into place). */
export class CodeCache {
  constructor(
    private readonly base: string,
    private readonly store: Store,
  ) {}

  /** The folder holding this source's files, unpacked on first use. */
  async folder(account: string, family: RuntimeFamily, source: CodeSource): Promise<string> {
    const key = this.keyOf(account, family, source);
    return this.materialize(`code-${key}`, async (root) => this.unpack(root, account, family, source));
  }

  /** One folder with the layers' contents merged in order (the function's /opt). */
  async layers(account: string, sources: CodeSource[]): Promise<string | undefined> {
    if (sources.length === 0) return undefined;
    const key = digest(...sources.map((s) => this.keyOf(account, 'nodejs', s)));
    return this.materialize(`opt-${key}`, async (root) => {
      for (const s of sources) await this.unpack(root, account, 'nodejs', s);
    });
  }

  private keyOf(account: string, family: RuntimeFamily, source: CodeSource): string {
    if (source.kind === 'inline') return digest('inline', family, source.text);
    if (source.kind === 'zip') return digest('zip', source.base64);
    if (source.kind === 's3') {
      const object = this.store.objects.get(account, source.bucket, source.key);
      return digest('s3', account, source.bucket, source.key, object?.bodyId ?? 'missing');
    }
    return digest('image', source.uri);
  }

  private async unpack(root: string, account: string, family: RuntimeFamily, source: CodeSource): Promise<void> {
    if (source.kind === 'inline') return writeInline(root, family, source.text);
    if (source.kind === 'zip') return unzipInto(root, Buffer.from(source.base64, 'base64'), 'ZipFile');
    if (source.kind === 's3') {
      const bytes = await s3Bytes(this.store, account, source.bucket, source.key);
      return unzipInto(root, bytes, `s3://${source.bucket}/${source.key}`);
    }
  }

  private async materialize(name: string, fill: (root: string) => Promise<void>): Promise<string> {
    const root = join(this.base, name);
    if (existsSync(root)) return root;
    const staging = `${root}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    mkdirSync(staging, { recursive: true });
    try {
      await fill(staging);
      if (!existsSync(root)) renameSync(staging, root);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    return root;
  }
}

/** The layer rows a function's Layers property names (version ARNs), in order; unknown ARNs are skipped. */
export function layerSources(store: Store, fn: WorldResource, arns: readonly string[]): CodeSource[] {
  const rows = store.world.list({ type: 'AWS::Lambda::LayerVersion', account: fn.account, region: fn.region });
  return arns.flatMap((arn) => {
    const row = rows.find((r) => r.physicalId === arn || r.attributes.LayerVersionArn === arn);
    const content = row?.properties.Content as Record<string, unknown> | undefined;
    return content ? [sourceOf(content)] : [];
  });
}
