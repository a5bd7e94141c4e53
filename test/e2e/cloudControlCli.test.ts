// Replays the AWS CLI `cloudcontrol` commands of AWS's Cloud Control API user guide (create, wait, get, update,
// list, delete a log group; list the requests) with Debian's AWS CLI v2 against a live cfn-local.
// https://docs.aws.amazon.com/cloudcontrolapi/latest/userguide/resource-operations.html
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { AWS_CLI, awsCliAvailable, clientEnv, gate, json, run } from './clients.js';

const cli = gate('AWS CLI v2 cloudcontrol', await awsCliAvailable());

describe.skipIf(cli.skip)(cli.title, () => {
  let server: TestServer;
  const aws = (...args: string[]) =>
    run(AWS_CLI, ['--endpoint-url', server.endpoint, '--output', 'json', 'cloudcontrol', ...args], {
      env: clientEnv(),
    });

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
  });

  // one step per test: each CLI start takes seconds on a busy machine
  let created: { RequestToken: string };

  it('create-resource answers IN_PROGRESS; wait resource-request-success; get-resource-request-status', async () => {
    created = json(
      await aws(
        'create-resource',
        '--type-name',
        'AWS::Logs::LogGroup',
        '--desired-state',
        '{"LogGroupName": "CloudApiLogGroup", "RetentionInDays":90}',
      ),
    ).ProgressEvent;
    expect(created).toMatchObject({
      TypeName: 'AWS::Logs::LogGroup',
      Operation: 'CREATE',
      OperationStatus: 'IN_PROGRESS',
    });
    const waited = await aws('wait', 'resource-request-success', '--request-token', created.RequestToken);
    expect(waited.code).toBe(0);
    const status = json(
      await aws('get-resource-request-status', '--request-token', created.RequestToken),
    ).ProgressEvent;
    expect(status).toMatchObject({ OperationStatus: 'SUCCESS', Identifier: 'CloudApiLogGroup' });
  });

  it('get-resource reads its properties; update-resource applies the patch', async () => {
    const got = json(
      await aws('get-resource', '--type-name', 'AWS::Logs::LogGroup', '--identifier', 'CloudApiLogGroup'),
    );
    expect(JSON.parse(got.ResourceDescription.Properties)).toMatchObject({
      LogGroupName: 'CloudApiLogGroup',
      RetentionInDays: 90,
      Arn: expect.stringContaining(':log-group:CloudApiLogGroup'),
    });

    const updated = json(
      await aws(
        'update-resource',
        '--type-name',
        'AWS::Logs::LogGroup',
        '--identifier',
        'CloudApiLogGroup',
        '--patch-document',
        '[{"op":"replace","path":"/RetentionInDays","value":180}]',
      ),
    ).ProgressEvent;
    expect((await aws('wait', 'resource-request-success', '--request-token', updated.RequestToken)).code).toBe(0);
  });

  it('list-resources shows the update; delete-resource removes it', async () => {
    const listed = json(await aws('list-resources', '--type-name', 'AWS::Logs::LogGroup'));
    expect(listed.ResourceDescriptions.map((d: { Identifier: string }) => d.Identifier)).toEqual(['CloudApiLogGroup']);
    expect(JSON.parse(listed.ResourceDescriptions[0].Properties).RetentionInDays).toBe(180);

    const deleted = json(
      await aws('delete-resource', '--type-name', 'AWS::Logs::LogGroup', '--identifier', 'CloudApiLogGroup'),
    ).ProgressEvent;
    expect((await aws('wait', 'resource-request-success', '--request-token', deleted.RequestToken)).code).toBe(0);
    const gone = await aws('get-resource', '--type-name', 'AWS::Logs::LogGroup', '--identifier', 'CloudApiLogGroup');
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('(ResourceNotFoundException) when calling the GetResource operation');
  });

  it('list-resource-requests filters by operation and status', async () => {
    const requests = json(
      await aws(
        'list-resource-requests',
        '--resource-request-status-filter',
        'Operations=CREATE,OperationStatuses=SUCCESS',
      ),
    );
    expect(requests.ResourceRequestStatusSummaries.map((e: { RequestToken: string }) => e.RequestToken)).toEqual([
      created.RequestToken,
    ]);
  });
});
