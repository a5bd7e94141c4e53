// Lambda-backed custom resources and macros run the account's functions in cfn-local's runtime, with no flag: the
// function gets CloudFormation's request and answers at its (HTTPS) ResponseURL through AWS's cfn-response /
// cfnresponse modules, importable by ZipFile code as on AWS. docs/lambda-runtime.md
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';

let server: TestServer;

const NODE_PROVIDER = `const response = require('cfn-response');
exports.handler = (event, context) => {
  const ok = event.ResponseURL.startsWith('https://');
  if (event.ResourceProperties.Fail === 'yes' && event.RequestType === 'Create') return response.send(event, context, response.FAILED, {});
  response.send(event, context, response.SUCCESS, { Greeting: 'hi ' + event.ResourceProperties.Name, Https: String(ok), Type: event.RequestType }, 'node-' + event.ResourceProperties.Name);
};`;

const PY_PROVIDER = `import cfnresponse
def handler(event, context):
    props = event["ResourceProperties"]
    cfnresponse.send(event, context, cfnresponse.SUCCESS, {"Sum": int(props["A"]) + int(props["B"])}, "py-sum")`;

// What the CDK's handlers do (provider framework, CustomResourceProvider): https.request with the hostname and path
// of the ResponseURL and no port, AWS's being 443.
const CDK_STYLE = `const https = require('https');
const url = require('url');
exports.handler = async (event) => {
  const u = url.parse(event.ResponseURL);
  const body = JSON.stringify({ Status: 'SUCCESS', PhysicalResourceId: 'cdk-style', StackId: event.StackId,
    RequestId: event.RequestId, LogicalResourceId: event.LogicalResourceId, Data: { Scheme: u.protocol } });
  await new Promise((resolve, reject) => {
    const req = https.request({ hostname: u.hostname, path: u.path, method: 'PUT',
      headers: { 'content-type': '', 'content-length': Buffer.byteLength(body) } }, (res) => { res.resume(); res.on('end', resolve); });
    req.on('error', reject);
    req.end(body);
  });
};`;

const indent = (code: string) =>
  code
    .split('\n')
    .map((l) => `          ${l}`)
    .join('\n');

const providers = `
  NodeProvider:
    Type: AWS::Lambda::Function
    Properties:
      Runtime: nodejs20.x
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Code:
        ZipFile: |
${indent(NODE_PROVIDER)}
  CdkStyleProvider:
    Type: AWS::Lambda::Function
    Properties:
      Runtime: nodejs22.x
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Code:
        ZipFile: |
${indent(CDK_STYLE)}
  PyProvider:
    Type: AWS::Lambda::Function
    Properties:
      Runtime: python3.12
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Code:
        ZipFile: |
${indent(PY_PROVIDER)}`;

const outputsOf = async (stackId: string) =>
  Object.fromEntries(
    ((await waitForStack(server.client, stackId, 30_000)).Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]),
  );

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('custom resources', () => {
  it("runs the ServiceToken's function and waits for its answer: cfn-response, cfnresponse, a port-less https.request", async () => {
    const template = `Resources:${providers}
  Greeting:
    Type: Custom::Greeting
    Properties: { ServiceToken: !GetAtt NodeProvider.Arn, Name: world }
  Sum:
    Type: AWS::CloudFormation::CustomResource
    Properties: { ServiceToken: !GetAtt PyProvider.Arn, A: 2, B: 3 }
  CdkStyle:
    Type: Custom::CdkStyle
    Properties: { ServiceToken: !GetAtt CdkStyleProvider.Arn }
Outputs:
  CdkStyle: { Value: !Ref CdkStyle }
  CdkScheme: { Value: !GetAtt CdkStyle.Scheme }
  Greeting: { Value: !GetAtt Greeting.Greeting }
  Https: { Value: !GetAtt Greeting.Https }
  Id: { Value: !Ref Greeting }
  Sum: { Value: !GetAtt Sum.Sum }
  SumId: { Value: !Ref Sum }
`;
    const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'cr', TemplateBody: template }));
    expect(await outputsOf(StackId!)).toEqual({
      CdkStyle: 'cdk-style',
      CdkScheme: 'https:',
      Greeting: 'hi world',
      Https: 'true',
      Id: 'node-world',
      Sum: '5',
      SumId: 'py-sum',
    });
    await server.client.send(new DeleteStackCommand({ StackName: StackId }));
    expect((await waitForStack(server.client, StackId!, 30_000)).StackStatus).toBe('DELETE_COMPLETE');
  }, 60_000);

  it("fails the resource with the function's FAILED answer", async () => {
    const template = `Resources:${providers}
  Greeting:
    Type: Custom::Greeting
    Properties: { ServiceToken: !GetAtt NodeProvider.Arn, Name: x, Fail: 'yes' }
`;
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'cr-fail', TemplateBody: template }),
    );
    const stack = await waitForStack(server.client, StackId!, 30_000);
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const { StackEvents } = await server.client.send(new DescribeStackEventsCommand({ StackName: StackId }));
    const failed = StackEvents!.find((e) => e.LogicalResourceId === 'Greeting' && e.ResourceStatus === 'CREATE_FAILED');
    expect(failed?.ResourceStatusReason).toMatch(
      /^Received response status \[FAILED\] from custom resource\. Message returned: See the details in CloudWatch Log Stream: \d{4}\/\d\d\/\d\d\/\[\$LATEST\][0-9a-f]{32} \(RequestId: [0-9a-f-]{36}\)$/,
    );
  }, 60_000);
});

describe('macros', () => {
  it('runs a Lambda-backed macro used by a second stack', async () => {
    const macroCode = `exports.handler = async (event) => {
  const fragment = event.fragment;
  fragment.Resources.Added = { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: event.params.Value || 'none', Name: '/macro/added' } };
  return { requestId: event.requestId, status: 'success', fragment };
};`;
    const macroStack = `Resources:
  MacroFn:
    Type: AWS::Lambda::Function
    Properties:
      Runtime: nodejs22.x
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Code:
        ZipFile: |
${indent(macroCode)}
  Macro:
    Type: AWS::CloudFormation::Macro
    Properties: { Name: AddParameter, FunctionName: !GetAtt MacroFn.Arn }
`;
    const first = await server.client.send(new CreateStackCommand({ StackName: 'macro', TemplateBody: macroStack }));
    expect((await waitForStack(server.client, first.StackId!)).StackStatus).toBe('CREATE_COMPLETE');
    const user = `Transform: { Name: AddParameter, Parameters: { Value: from-macro } }
Resources:
  Own:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: own }
`;
    const second = await server.client.send(
      new CreateStackCommand({ StackName: 'uses-macro', TemplateBody: user, Capabilities: ['CAPABILITY_AUTO_EXPAND'] }),
    );
    expect((await waitForStack(server.client, second.StackId!, 30_000)).StackStatus).toBe('CREATE_COMPLETE');
    const { StackResources } = await server.client.send(new DescribeStackResourcesCommand({ StackName: 'uses-macro' }));
    expect(StackResources!.map((r) => r.LogicalResourceId).sort()).toEqual(['Added', 'Own']);
  }, 60_000);
});
