// Ref of an AWS::Route53::RecordSet is its domain name, and two record sets of one name (A and AAAA) coexist.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-route53-recordset.html
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const record = (id: string, type: string, value: string) => `  ${id}:
    Type: AWS::Route53::RecordSet
    Properties:
      HostedZoneName: example.com.
      Name: www.example.com.
      Type: ${type}
      TTL: "300"
      ResourceRecords: ["${value}"]
`;

it('Ref is the record name, and an A and an AAAA record of the same name both deploy', async () => {
  const body = `Resources:\n${record('A4', 'A', '192.0.2.1')}${record('A6', 'AAAA', '2001:db8::1')}Outputs:\n  Name:\n    Value: !Ref A4\n  Name6:\n    Value: !Ref A6\n`;
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'dns', TemplateBody: body }));
  const stack = await waitForStack(server.client, StackId!);
  expect(stack.StackStatus).toBe('CREATE_COMPLETE');
  expect(Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey, o.OutputValue]))).toEqual({
    Name: 'www.example.com.',
    Name6: 'www.example.com.',
  });
});
