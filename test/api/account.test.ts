// DescribeAccountLimits answers AWS's default quotas; EstimateTemplateCost answers a calculator link once the
// template parses, and AWS's template errors when it does not.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DescribeAccountLimitsCommand, EstimateTemplateCostCommand } from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

it('DescribeAccountLimits returns the stack, output and concurrent-resource quotas', async () => {
  const { AccountLimits, NextToken } = await server.client.send(new DescribeAccountLimitsCommand({}));
  expect(AccountLimits).toEqual([
    { Name: 'StackLimit', Value: 2000 },
    { Name: 'StackOutputsLimit', Value: 200 },
    { Name: 'ConcurrentResourcesLimit', Value: 2500 },
  ]);
  expect(NextToken).toBeUndefined();
});

it('EstimateTemplateCost returns a calculator URL for a valid template', async () => {
  const { Url } = await server.client.send(
    new EstimateTemplateCostCommand({ TemplateBody: 'Resources:\n  Q:\n    Type: AWS::SQS::Queue\n' }),
  );
  expect(Url).toMatch(/^http:\/\/calculator\.s3\.amazonaws\.com\/calc5\.html\?key=cloudformation\/[0-9a-f-]{36}$/);
});

it.each([
  ['no template', {}, 'Either Template URL or Template Body must be specified.'],
  [
    'a template that does not parse',
    { TemplateBody: '{ "Resources": ' },
    expect.stringMatching(/^Template format error/),
  ],
])('EstimateTemplateCost returns ValidationError for %s', async (_, input, message) => {
  await expect(server.client.send(new EstimateTemplateCostCommand(input))).rejects.toMatchObject({
    name: 'ValidationError',
    message,
  });
});
