// Every fixture template in test/fixtures/templates/<topic>/ deploys through the SDK, shows the outputs its
// .expect.json asserts, and deletes cleanly. Fixtures marked "keep" (the CDK bootstrap stack) stay up for the
// ones after them and are deleted at the end, newest first.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '../helpers/server.js';
import { deploy, destroy } from '../conformance/harness.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/templates');

interface Expectation {
  parameters?: Record<string, string>;
  /** Exact values, or "/regex/". */
  outputs: Record<string, string>;
  stackName?: string;
  keep?: boolean;
}

const fixtures = readdirSync(ROOT).sort().flatMap((topic) => readdirSync(join(ROOT, topic)).sort()
  .filter((f) => /\.(ya?ml|json)$/.test(f) && !f.endsWith('.expect.json'))
  .map((file) => {
    const path = join(ROOT, topic, file);
    const expectPath = path.replace(/\.(ya?ml|json)$/, '.expect.json');
    const expectation = existsSync(expectPath) ? (JSON.parse(readFileSync(expectPath, 'utf8')) as Expectation) : { outputs: {} };
    return { name: `${topic}/${file}`, body: readFileSync(path, 'utf8'), expectation };
  }));

const matcher = (v: string) => (v.startsWith('/') && v.endsWith('/') && v.length > 1 ? expect.stringMatching(new RegExp(v.slice(1, -1))) : v);

let server: TestServer;
const kept: string[] = [];
beforeAll(async () => {
  server = await startServer();
  // What the fixtures read from the account: the public AMI parameter the EC2 samples resolve.
  const world = await deploy(server.client, {
    Resources: { Ami: { Type: 'AWS::SSM::Parameter', Properties: { Name: '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64', Type: 'String', Value: 'ami-0abcdef1234567890' } } },
  }, {}, { stackName: 'fixture-world' });
  expect(world.status).toBe('CREATE_COMPLETE');
});
afterAll(async () => {
  for (const id of kept.reverse()) expect(await destroy(server.client, id)).toBe('DELETE_COMPLETE');
  await server.close();
});

describe('fixture templates deploy and delete cleanly', () => {
  it('has twenty or more fixtures', () => expect(fixtures.length).toBeGreaterThanOrEqual(20));

  it.each(fixtures.map((f) => [f.name, f] as const))('%s', async (name, f) => {
    const stackName = f.expectation.stackName ?? name.replace(/\.(ya?ml|json)$/, '').replace(/[^A-Za-z0-9]+/g, '-');
    const r = await deploy(server.client, f.body, f.expectation.parameters ?? {}, { stackName });
    expect(r.error, r.error?.message).toBeUndefined();
    expect(r.status, r.reason).toBe('CREATE_COMPLETE');
    expect(r.outputs).toEqual(Object.fromEntries(Object.entries(f.expectation.outputs).map(([k, v]) => [k, matcher(v)])));
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
    const r = await deploy(server.client, body, { FileAssetsBucketKmsKeyId: 'AWS_MANAGED_KEY', Qualifier: 'managed' }, { stackName: 'CDKToolkit-managed' });
    expect(r.error, r.error?.message).toBeUndefined();
    expect(r.status, r.reason).toBe('CREATE_COMPLETE');
    expect(r.outputs.FileAssetKeyArn).toBe('AWS_MANAGED_KEY');
    expect(await destroy(server.client, r.stackId!)).toBe('DELETE_COMPLETE');
  });
});
