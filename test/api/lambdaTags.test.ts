// Lambda's TagResource, UntagResource and ListTags through the SDK, on a stack's function.
// https://docs.aws.amazon.com/lambda/latest/api/API_TagResource.html
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GetFunctionCommand,
  GetFunctionConfigurationCommand,
  LambdaClient,
  ListTagsCommand,
  TagResourceCommand,
  UntagResourceCommand,
} from '@aws-sdk/client-lambda';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';

const ARN = 'arn:aws:lambda:us-east-1:000000000000:function:tagged';
const TEMPLATE = `Resources:
  Fn:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: tagged
      Runtime: nodejs20.x
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Code: { ZipFile: "exports.handler = async () => 'v1'" }
      Tags: [{ Key: team, Value: core }]
`;

let server: TestServer;
let lambda: LambdaClient;
beforeAll(async () => {
  server = await startServer();
  lambda = new LambdaClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'tags', TemplateBody: TEMPLATE }));
  expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
});
afterAll(() => server.close());

const tags = async () => (await lambda.send(new ListTagsCommand({ Resource: ARN }))).Tags;

describe('ListTags', () => {
  it("lists the template's tags of the function", async () => {
    expect(await tags()).toEqual({ team: 'core' });
  });
});

describe('TagResource and UntagResource', () => {
  it('add and replace tags, remove several keys in one call, and GetFunction shows the result', async () => {
    const { RevisionId } = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'tagged' }));
    const tagged = await lambda.send(
      new TagResourceCommand({ Resource: ARN, Tags: { team: 'edge', env: 'dev', a: '1' } }),
    );
    expect(tagged.$metadata.httpStatusCode).toBe(204);
    expect(await tags()).toEqual({ team: 'edge', env: 'dev', a: '1' });
    // Two keys: the SDK repeats the tagKeys query parameter.
    const untagged = await lambda.send(new UntagResourceCommand({ Resource: ARN, TagKeys: ['a', 'team', 'absent'] }));
    expect(untagged.$metadata.httpStatusCode).toBe(204);
    expect(await tags()).toEqual({ env: 'dev' });
    expect((await lambda.send(new GetFunctionCommand({ FunctionName: 'tagged' }))).Tags).toEqual({ env: 'dev' });
    // Tags are not configuration: the function's revision stays.
    const after = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: 'tagged' }));
    expect(after.RevisionId).toBe(RevisionId);
    await lambda.send(new UntagResourceCommand({ Resource: ARN, TagKeys: ['env'] }));
    expect(await tags()).toEqual({});
  });
});

describe('refusals', () => {
  it.each([
    ['TagResource', () => new TagResourceCommand({ Resource: `${ARN}-missing`, Tags: { k: 'v' } })],
    ['UntagResource', () => new UntagResourceCommand({ Resource: `${ARN}-missing`, TagKeys: ['k'] })],
    ['ListTags', () => new ListTagsCommand({ Resource: `${ARN}-missing` })],
  ] as const)(
    '%s answers ResourceNotFoundException (404) for a function the account does not have',
    async (_, command) => {
      expect(await awsErrorOf(lambda.send(command() as never))).toEqual({
        code: 'ResourceNotFoundException',
        message: `Function not found: ${ARN}-missing`,
        status: 404,
      });
    },
  );

  it("answers ResourceNotFoundException for another account's function ARN", async () => {
    const other = 'arn:aws:lambda:us-east-1:999999999999:function:tagged';
    expect(await awsErrorOf(lambda.send(new ListTagsCommand({ Resource: other })))).toEqual({
      code: 'ResourceNotFoundException',
      message: `Function not found: ${other}`,
      status: 404,
    });
  });

  it('answers ValidationException for a Resource that is no function ARN', async () => {
    const err = await awsErrorOf(lambda.send(new ListTagsCommand({ Resource: 'tagged' })));
    expect(err.code).toBe('ValidationException');
    expect(err.status).toBe(400);
    expect(err.message).toMatch(
      /^1 validation error detected: Value 'tagged' at 'resource' failed to satisfy constraint: Member must satisfy regular expression pattern: arn:/,
    );
  });
});
