// SetAlias and RemoveAlias through the AWS SDK v3 client: an alias names its stack wherever a StackName is accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  GetTemplateCommand,
  RemoveAliasCommand,
  SetAliasCommand,
  UpdateStackCommand,
  CloudFormationClient,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';

const TEMPLATE = `Resources:
  Topic:
    Type: AWS::SNS::Topic
Outputs:
  Name:
    Value: !GetAtt Topic.TopicName
`;
const UPDATED = `${TEMPLATE}
  Extra:
    Value: updated
`;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function created(client: CloudFormationClient, name: string): Promise<string> {
  const { StackId } = await client.send(new CreateStackCommand({ StackName: name, TemplateBody: TEMPLATE }));
  await waitForStack(client, StackId!);
  return StackId!;
}

const describeOne = async (client: CloudFormationClient, name: string) =>
  (await client.send(new DescribeStacksCommand({ StackName: name }))).Stacks![0];

describe('SetAlias', () => {
  describe('validation', () => {
    beforeAll(() => created(server.client, 'alias-pattern'));

    it.each([
      ['1starts-with-a-digit', 'Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*'],
      ['has_underscore', 'Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*'],
      ['', 'Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*'],
    ])('returns ValidationError for the alias %j', async (alias, rule) => {
      const err = await awsErrorOf(
        server.client.send(new SetAliasCommand({ StackName: 'alias-pattern', AliasName: alias })),
      );
      expect(err).toEqual({
        code: 'ValidationError',
        message: `1 validation error detected: Value '${alias}' at 'aliasName' failed to satisfy constraint: ${rule}`,
        status: 400,
      });
    });

    it('returns ValidationError for an alias longer than 128 characters, and takes one of 128', async () => {
      await created(server.client, 'alias-length');
      const err = await awsErrorOf(
        server.client.send(new SetAliasCommand({ StackName: 'alias-length', AliasName: `a${'b'.repeat(128)}` })),
      );
      expect(err).toEqual({
        code: 'ValidationError',
        message:
          "1 validation error detected: Value at 'aliasName' failed to satisfy constraint: Member must have length less than or equal to 128",
        status: 400,
      });
      const longest = `a${'b'.repeat(127)}`;
      await server.client.send(new SetAliasCommand({ StackName: 'alias-length', AliasName: longest }));
      expect((await describeOne(server.client, longest)).StackName).toBe('alias-length');
    });

    it('returns ValidationError when the stack does not exist', async () => {
      const err = await awsErrorOf(
        server.client.send(new SetAliasCommand({ StackName: 'no-such-stack', AliasName: 'x' })),
      );
      expect(err).toEqual({
        code: 'ValidationError',
        message: 'Stack with id no-such-stack does not exist',
        status: 400,
      });
    });
  });

  describe('behaviour', () => {
    it('DescribeStacks by the alias finds the stack, which shows AliasName and keeps its name and ARN', async () => {
      const id = await created(server.client, 'alias-orders');
      await server.client.send(new SetAliasCommand({ StackName: 'alias-orders', AliasName: 'OrdersProd' }));
      const byAlias = await describeOne(server.client, 'OrdersProd');
      expect(byAlias).toMatchObject({ StackId: id, StackName: 'alias-orders', AliasName: 'OrdersProd' });
      expect((await describeOne(server.client, 'alias-orders')).AliasName).toBe('OrdersProd');
      expect((await describeOne(server.client, id)).AliasName).toBe('OrdersProd');
    });

    it('takes the stack by its ARN', async () => {
      const id = await created(server.client, 'alias-by-arn');
      await server.client.send(new SetAliasCommand({ StackName: id, AliasName: 'ByArn' }));
      expect((await describeOne(server.client, 'ByArn')).StackId).toBe(id);
    });

    it('UpdateStack, GetTemplate, CreateChangeSet, DescribeStackEvents and DeleteStack take the alias', async () => {
      const id = await created(server.client, 'alias-everywhere');
      await server.client.send(new SetAliasCommand({ StackName: 'alias-everywhere', AliasName: 'Everywhere' }));
      const { TemplateBody } = await server.client.send(new GetTemplateCommand({ StackName: 'Everywhere' }));
      expect(TemplateBody).toBe(TEMPLATE);
      const { StackId } = await server.client.send(
        new UpdateStackCommand({ StackName: 'Everywhere', TemplateBody: UPDATED }),
      );
      expect(StackId).toBe(id);
      const updated = await waitForStack(server.client, id);
      expect(updated).toMatchObject({ StackStatus: 'UPDATE_COMPLETE', AliasName: 'Everywhere' });
      const cs = await server.client.send(
        new CreateChangeSetCommand({ StackName: 'Everywhere', ChangeSetName: 'cs', TemplateBody: TEMPLATE }),
      );
      expect(cs.StackId).toBe(id);
      const described = await server.client.send(
        new DescribeChangeSetCommand({ StackName: 'Everywhere', ChangeSetName: 'cs' }),
      );
      expect(described.StackName).toBe('alias-everywhere');
      const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: 'Everywhere' }));
      expect(StackEvents![0].StackId).toBe(id);
      await server.client.send(new DeleteStackCommand({ StackName: 'Everywhere' }));
      const gone = await waitForStack(server.client, id);
      expect(gone.StackStatus).toBe('DELETE_COMPLETE');
      expect(gone.AliasName).toBeUndefined();
      // A deleted stack's alias names nothing, and is free again.
      const err = await awsErrorOf(server.client.send(new DescribeStacksCommand({ StackName: 'Everywhere' })));
      expect(err.message).toBe('Stack with id Everywhere does not exist');
      await created(server.client, 'alias-reuser');
      await server.client.send(new SetAliasCommand({ StackName: 'alias-reuser', AliasName: 'Everywhere' }));
      expect((await describeOne(server.client, 'Everywhere')).StackName).toBe('alias-reuser');
    });

    it('CreateStack with a name that is an alias returns AlreadyExistsException', async () => {
      await created(server.client, 'alias-taken');
      await server.client.send(new SetAliasCommand({ StackName: 'alias-taken', AliasName: 'TakenAlias' }));
      const err = await awsErrorOf(
        server.client.send(new CreateStackCommand({ StackName: 'TakenAlias', TemplateBody: TEMPLATE })),
      );
      expect(err).toEqual({
        code: 'AlreadyExistsException',
        message: 'Stack [TakenAlias] already exists',
        status: 400,
      });
    });

    it('an alias is case-sensitive', async () => {
      await created(server.client, 'alias-case');
      await server.client.send(new SetAliasCommand({ StackName: 'alias-case', AliasName: 'CaseAlias' }));
      const err = await awsErrorOf(server.client.send(new DescribeStacksCommand({ StackName: 'casealias' })));
      expect(err.message).toBe('Stack with id casealias does not exist');
    });

    it('an alias belongs to its account and region', async () => {
      await created(server.client, 'alias-home');
      await server.client.send(new SetAliasCommand({ StackName: 'alias-home', AliasName: 'HomeOnly' }));
      const elsewhere = regionClient('eu-west-1');
      const err = await awsErrorOf(elsewhere.send(new DescribeStacksCommand({ StackName: 'HomeOnly' })));
      expect(err.message).toBe('Stack with id HomeOnly does not exist');
      await created(elsewhere, 'alias-away');
      await elsewhere.send(new SetAliasCommand({ StackName: 'alias-away', AliasName: 'HomeOnly' }));
      expect((await describeOne(elsewhere, 'HomeOnly')).StackName).toBe('alias-away');
      expect((await describeOne(server.client, 'HomeOnly')).StackName).toBe('alias-home');
    });
  });

  describe('refusals', () => {
    it('returns AlreadyExistsException when another stack holds the alias', async () => {
      await created(server.client, 'alias-first');
      await created(server.client, 'alias-second');
      await server.client.send(new SetAliasCommand({ StackName: 'alias-first', AliasName: 'Shared' }));
      const err = await awsErrorOf(
        server.client.send(new SetAliasCommand({ StackName: 'alias-second', AliasName: 'Shared' })),
      );
      expect(err).toEqual({ code: 'AlreadyExistsException', message: 'Alias [Shared] already exists', status: 400 });
    });

    it('returns AlreadyExistsException when the alias is a stack name, the stack own included', async () => {
      await created(server.client, 'alias-named');
      await created(server.client, 'alias-other');
      for (const alias of ['alias-other', 'alias-named']) {
        const err = await awsErrorOf(
          server.client.send(new SetAliasCommand({ StackName: 'alias-named', AliasName: alias })),
        );
        expect(err).toEqual({
          code: 'AlreadyExistsException',
          message: `Stack [${alias}] already exists`,
          status: 400,
        });
      }
    });

    it('returns LimitExceededException when the stack already has an alias, until RemoveAlias', async () => {
      await created(server.client, 'alias-one');
      await server.client.send(new SetAliasCommand({ StackName: 'alias-one', AliasName: 'OneA' }));
      const err = await awsErrorOf(server.client.send(new SetAliasCommand({ StackName: 'OneA', AliasName: 'OneB' })));
      expect(err).toEqual({
        code: 'LimitExceededException',
        message: 'Stack [alias-one] already has alias [OneA]: remove it with RemoveAlias before setting another',
        status: 400,
      });
      await server.client.send(new RemoveAliasCommand({ AliasName: 'OneA' }));
      await server.client.send(new SetAliasCommand({ StackName: 'alias-one', AliasName: 'OneB' }));
      expect((await describeOne(server.client, 'OneB')).StackName).toBe('alias-one');
    });
  });
});

describe('RemoveAlias', () => {
  it('the alias then names no stack, and DescribeStacks shows no AliasName', async () => {
    await created(server.client, 'alias-removed');
    await server.client.send(new SetAliasCommand({ StackName: 'alias-removed', AliasName: 'Removed' }));
    await server.client.send(new RemoveAliasCommand({ AliasName: 'Removed' }));
    const err = await awsErrorOf(server.client.send(new DescribeStacksCommand({ StackName: 'Removed' })));
    expect(err).toEqual({ code: 'ValidationError', message: 'Stack with id Removed does not exist', status: 400 });
    expect((await describeOne(server.client, 'alias-removed')).AliasName).toBeUndefined();
  });

  it('returns ValidationError for an alias no stack holds, a stack name included', async () => {
    await created(server.client, 'alias-plain');
    for (const alias of ['NoSuchAlias', 'alias-plain']) {
      const err = await awsErrorOf(server.client.send(new RemoveAliasCommand({ AliasName: alias })));
      expect(err).toEqual({ code: 'ValidationError', message: `Alias [${alias}] does not exist`, status: 400 });
    }
  });
});

describe('persistence', () => {
  it('an alias survives a restart on the same database file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfn-local-alias-'));
    try {
      const db = join(dir, 'state.db');
      const first = await startServer({ db });
      const id = await created(first.client, 'alias-kept');
      await first.client.send(new SetAliasCommand({ StackName: 'alias-kept', AliasName: 'Kept' }));
      await first.close();
      const second = await startServer({ db });
      try {
        expect(await describeOne(second.client, 'Kept')).toMatchObject({ StackId: id, AliasName: 'Kept' });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function regionClient(region: string): CloudFormationClient {
  return new CloudFormationClient({
    endpoint: server.endpoint,
    region,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
}
