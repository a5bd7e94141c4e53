// The specification's allowed values are enforced at execution as the registry enforces them, after
// CloudFormation's conversion of the value: AWS::Logs::LogGroup RetentionInDays (seed row S2.65, measured against
// AWS: "30" and "+30" accepted; 0, "0", 31, "1e3" and "30.5" refused).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createStack, resourceEvents } from './worldHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

let n = 0;
const template = (value: string) =>
  `Resources:\n  Logs:\n    Type: AWS::Logs::LogGroup\n    Properties:\n      RetentionInDays: ${value}\n`;
const ENUM =
  'Properties validation failed for resource Logs with message: [#/RetentionInDays: failed validation constraint for keyword [enum]]';
const NOT_INTEGER =
  'Properties validation failed for resource Logs with message: [#/RetentionInDays: expected type: Integer, found: String]';

describe('RetentionInDays', () => {
  it.each([['30'], ['"30"'], ['"+30"'], ['3653']])('%s is accepted', async (value) => {
    const { stack } = await createStack(server, `retention-ok-${++n}`, template(value));
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
  });

  it.each([
    ['0', ENUM],
    ['"0"', ENUM],
    ['31', ENUM],
    ['"1e3"', NOT_INTEGER],
    ['"30.5"', NOT_INTEGER],
  ])('%s is refused: %s', async (value, reason) => {
    const { id, stack } = await createStack(server, `retention-bad-${++n}`, template(value));
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const failed = (await resourceEvents(server.client, id, 'Logs')).find((e) => e.ResourceStatus === 'CREATE_FAILED');
    expect(failed?.ResourceStatusReason).toBe(reason);
  });
});
