// Every fixture template in test/fixtures/templates/<topic>/ deploys through the SDK with its default parameters,
// shows the outputs its .expect.json asserts, takes the update it declares, and deletes cleanly. Fixtures marked
// "keep" (the CDK bootstrap stack) stay up for the ones after them and are deleted at the end, newest first.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '../helpers/server.js';
import { deploy, destroy } from '../conformance/harness.js';
import { sendSignals, updateFixture, type FixtureSignal, type FixtureUpdate } from './fixtureSteps.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/templates');

interface Expectation {
  parameters?: Record<string, string>;
  /** Exact values, or "/regex/". */
  outputs: Record<string, string>;
  stackName?: string;
  keep?: boolean;
  update?: FixtureUpdate & { outputs?: Record<string, string> };
  /** CreationPolicy signals to send while the stack is created. */
  signal?: FixtureSignal;
}

const fixtures = readdirSync(ROOT)
  .sort()
  .flatMap((topic) =>
    readdirSync(join(ROOT, topic))
      .sort()
      .filter((f) => /\.(ya?ml|json)$/.test(f) && !f.endsWith('.expect.json'))
      .map((file) => {
        const path = join(ROOT, topic, file);
        const expectPath = path.replace(/\.(ya?ml|json)$/, '.expect.json');
        const expectation = existsSync(expectPath)
          ? (JSON.parse(readFileSync(expectPath, 'utf8')) as Expectation)
          : { outputs: {} };
        return { name: `${topic}/${file}`, body: readFileSync(path, 'utf8'), expectation };
      }),
  );

const matcher = (v: string) =>
  v.startsWith('/') && v.endsWith('/') && v.length > 1 ? expect.stringMatching(new RegExp(v.slice(1, -1))) : v;

let server: TestServer;
const kept: string[] = [];
beforeAll(async () => {
  // the public AMI parameters the EC2 samples resolve exist in every account (resources/publicParameters/)
  server = await startServer();
});
afterAll(async () => {
  for (const id of kept.reverse()) expect(await destroy(server.client, id)).toBe('DELETE_COMPLETE');
  await server.close();
});

describe('fixture templates deploy and delete cleanly', () => {
  it('has twenty or more fixtures', () => expect(fixtures.length).toBeGreaterThanOrEqual(20));

  it.each(fixtures.map((f) => [f.name, f] as const))('%s', async (name, f) => {
    const stackName = f.expectation.stackName ?? name.replace(/\.(ya?ml|json)$/, '').replace(/[^A-Za-z0-9]+/g, '-');
    const signalling = f.expectation.signal && sendSignals(server.client, stackName, f.expectation.signal);
    const r = await deploy(server.client, f.body, f.expectation.parameters ?? {}, { stackName });
    await signalling;
    expect(r.error, r.error?.message).toBeUndefined();
    expect(r.status, r.reason).toBe('CREATE_COMPLETE');
    expect(r.outputs).toEqual(
      Object.fromEntries(Object.entries(f.expectation.outputs).map(([k, v]) => [k, matcher(v)])),
    );
    if (f.expectation.update) {
      const updated = await updateFixture(server.client, r.stackId!, f.expectation.update);
      expect(updated.StackStatus, updated.StackStatusReason).toBe('UPDATE_COMPLETE');
      const outputs = Object.fromEntries((updated.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!]));
      for (const [k, v] of Object.entries(f.expectation.update.outputs ?? {}))
        expect(outputs[k], k).toEqual(matcher(v));
    }
    if (f.expectation.keep) kept.push(r.stackId!);
    else expect(await destroy(server.client, r.stackId!)).toBe('DELETE_COMPLETE');
  });
});

// `cdk bootstrap` with default options passes FileAssetsBucketKmsKeyId=AWS_MANAGED_KEY (aws/aws-cdk-cli
// bootstrap-environment.ts: USE_AWS_MANAGED_KEY unless --bootstrap-customer-key), so the key is skipped and the
// untaken Fn::If branches of KMSMasterKeyID and the FileAssetKeyArn output name it.
describe('the CDK bootstrap template with default options', () => {
  it('deploys with the AWS-managed key and deletes cleanly', async () => {
    const body = readFileSync(join(ROOT, 'cdk/00-bootstrap.yaml'), 'utf8');
    const r = await deploy(
      server.client,
      body,
      { FileAssetsBucketKmsKeyId: 'AWS_MANAGED_KEY', Qualifier: 'managed' },
      { stackName: 'CDKToolkit-managed' },
    );
    expect(r.error, r.error?.message).toBeUndefined();
    expect(r.status, r.reason).toBe('CREATE_COMPLETE');
    expect(r.outputs.FileAssetKeyArn).toBe('AWS_MANAGED_KEY');
    expect(await destroy(server.client, r.stackId!)).toBe('DELETE_COMPLETE');
  });
});
