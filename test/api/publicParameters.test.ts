// AWS's public SSM parameters (`/aws/service/…`) exist in every account and region: SSM parameter types and
// `{{resolve:ssm:…}}` read them, with realistic values stable per region, and no stack can write them.
// https://docs.aws.amazon.com/systems-manager/latest/userguide/parameter-store-finding-public-parameters.html
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetParameterCommand, GetParametersByPathCommand, GetParametersCommand, SSMClient } from '@aws-sdk/client-ssm';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { resourceLines } from '../helpers/events.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const AL2023 = '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64';
const amiTemplate = (name: string) => `
Parameters:
  LatestAmiId:
    Type: AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>
    Default: ${name}
Resources:
  Instance:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: !Ref LatestAmiId
      InstanceType: t3.micro
Outputs:
  Ami:
    Value: !Ref LatestAmiId
`;

async function deploy(client: CloudFormationClient, name: string, body: string) {
  const { StackId } = await client.send(new CreateStackCommand({ StackName: name, TemplateBody: body }));
  return waitForStack(client, StackId!);
}

const regionClient = (region: string) =>
  new CloudFormationClient({
    endpoint: server.endpoint,
    region,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });

describe('public parameters through SSM parameter types', () => {
  it('resolves the latest Amazon Linux AMI to an ami- id with 17 hex digits, the same for every stack of a region', async () => {
    const first = await deploy(server.client, 'ami-1', amiTemplate(AL2023));
    const second = await deploy(server.client, 'ami-2', amiTemplate(AL2023));
    expect(first.StackStatus).toBe('CREATE_COMPLETE');
    const ami = first.Outputs![0].OutputValue!;
    expect(ami).toMatch(/^ami-[0-9a-f]{17}$/);
    expect(first.Parameters![0]).toMatchObject({ ParameterValue: AL2023, ResolvedValue: ami });
    expect(second.Outputs![0].OutputValue).toBe(ami);
    const other = await deploy(regionClient('eu-west-1'), 'ami-eu', amiTemplate(AL2023));
    expect(other.Outputs![0].OutputValue).toMatch(/^ami-[0-9a-f]{17}$/);
    expect(other.Outputs![0].OutputValue).not.toBe(ami);
  });

  it.each([
    '/aws/service/ami-amazon-linux-latest/amzn2-ami-hvm-x86_64-gp2',
    '/aws/service/ami-windows-latest/Windows_Server-2022-English-Full-Base',
    '/aws/service/ecs/optimized-ami/amazon-linux-2/recommended/image_id',
    '/aws/service/ecs/optimized-ami/amazon-linux-2023/recommended/image_id',
    '/aws/service/eks/optimized-ami/1.31/amazon-linux-2/recommended/image_id',
    '/aws/service/bottlerocket/aws-k8s-1.31/x86_64/latest/image_id',
    '/aws/service/canonical/ubuntu/server/22.04/stable/current/amd64/hvm/ebs-gp2/ami-id',
    // the paths AWS's own sample templates read (aws-cloudformation-templates)
    '/aws/service/canonical/ubuntu/eks-pro/22.04/1.29/stable/current/amd64/hvm/ebs-gp2/ami-id',
    '/aws/service/debian/release/10/latest/amd64',
    '/aws/service/ami-windows-latest/Windows_Server-2022-English-Full-SQL_2022_Web',
    '/aws/service/ami-windows-latest/Windows_Server-2016-English-Full-Base',
    '/aws/service/marketplace/prod-abcdefghij123/latest',
  ])('resolves %s', async (name) => {
    const stack = await deploy(
      server.client,
      `p${name.replace(/[^A-Za-z0-9]+/g, '-')}`.slice(0, 128),
      amiTemplate(name),
    );
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    expect(stack.Outputs![0].OutputValue).toMatch(/^ami-[0-9a-f]{17}$/);
  });

  it('refuses a name under /aws/service/ that AWS does not publish, as for any missing parameter', async () => {
    await expect(
      deploy(server.client, 'ami-missing', amiTemplate('/aws/service/ami-amazon-linux-latest/no-such-image')),
    ).rejects.toThrow(
      'Unable to fetch parameters [/aws/service/ami-amazon-linux-latest/no-such-image] from parameter store for this account.',
    );
  });
});

describe('public parameters through dynamic references', () => {
  it('reads the global infrastructure of the region', async () => {
    const body = `
Resources:
  P:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: '{{resolve:ssm:/aws/service/global-infrastructure/regions/us-east-1/longName}} {{resolve:ssm:/aws/service/global-infrastructure/regions/us-east-1/partition}}'
Outputs:
  Seen:
    Value: !GetAtt P.Value
`;
    const stack = await deploy(server.client, 'infra', body);
    expect(stack.Outputs![0].OutputValue).toBe('US East (N. Virginia) aws');
  });
});

describe('public parameters through the SSM API', () => {
  const ssm = () =>
    new SSMClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 't', secretAccessKey: 't' },
    });

  it('GetParameter shows a public parameter as AWS does: no account in its ARN, an AMI data type', async () => {
    const name = '/aws/service/debian/release/10/latest/amd64';
    const { Parameter } = await ssm().send(new GetParameterCommand({ Name: name }));
    expect(Parameter).toMatchObject({
      Name: name,
      Type: 'String',
      DataType: 'aws:ec2:image',
      ARN: `arn:aws:ssm:us-east-1::parameter${name}`,
    });
    expect(Parameter!.Value).toMatch(/^ami-[0-9a-f]{17}$/);
  });

  it('GetParameters answers the public names it knows and lists the others as invalid', async () => {
    const known = '/aws/service/global-infrastructure/regions/eu-west-1/longName';
    const unknown = '/aws/service/debian/release/9/latest/amd64';
    const out = await ssm().send(new GetParametersCommand({ Names: [known, unknown] }));
    expect(out.Parameters!.map((p) => [p.Name, p.Value])).toEqual([[known, 'Europe (Ireland)']]);
    expect(out.InvalidParameters).toEqual([unknown]);
  });

  it('GetParametersByPath lists one level of the regions tree, ten a page, every region once', async () => {
    const names: string[] = [];
    let NextToken: string | undefined;
    let pages = 0;
    do {
      const out = await ssm().send(
        new GetParametersByPathCommand({ Path: '/aws/service/global-infrastructure/regions', NextToken }),
      );
      expect(out.Parameters!.length).toBeLessThanOrEqual(10);
      names.push(...out.Parameters!.map((p) => p.Name!));
      NextToken = out.NextToken;
      pages += 1;
    } while (NextToken);
    expect(pages).toBeGreaterThan(2);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('/aws/service/global-infrastructure/regions/us-east-1');
    expect(names.every((n) => /^\/aws\/service\/global-infrastructure\/regions\/[a-z]+-[a-z]+-\d$/.test(n))).toBe(true);
  });

  it('GetParametersByPath with Recursive reads a whole tree, without it only the level', async () => {
    const path = '/aws/service/debian/release/10';
    const one = await ssm().send(new GetParametersByPathCommand({ Path: path }));
    expect(one.Parameters).toEqual([]);
    const all = await ssm().send(new GetParametersByPathCommand({ Path: path, Recursive: true }));
    expect(all.Parameters!.map((p) => p.Name)).toEqual([`${path}/latest/amd64`, `${path}/latest/arm64`]);
    const zones = await ssm().send(
      new GetParametersByPathCommand({
        Path: '/aws/service/global-infrastructure/regions/us-east-1/availability-zones',
      }),
    );
    expect(zones.Parameters!.map((p) => p.Value)).toEqual(expect.arrayContaining(['use1-az1', 'use1-az2']));
  });
});

describe('public parameters cannot be written', () => {
  it("fails an AWS::SSM::Parameter named under /aws/ with SSM's refusal", async () => {
    const body = `Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Name: ${AL2023}\n      Type: String\n      Value: ami-0123456789abcdef0\n`;
    const stack = await deploy(server.client, 'overwrite', body);
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    const lines = await resourceLines(server.client, 'overwrite', 'P', true);
    expect(lines.find((l) => l.startsWith('P CREATE_FAILED'))).toMatch(
      /^P CREATE_FAILED: Parameter name: can't be prefixed with "aws" or "ssm" \(case-insensitive\)\. .* \(Service: AmazonSSM; Status Code: 400; Error Code: ValidationException; Request ID: [0-9a-f-]+; Proxy: null\)$/,
    );
    const again = await deploy(server.client, 'ami-after', amiTemplate(AL2023));
    expect(again.Outputs![0].OutputValue).toMatch(/^ami-[0-9a-f]{17}$/);
  });

  it('refuses a control-API parameter under /aws/', async () => {
    const res = await fetch(`${server.endpoint}/_cfn-local/world`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'AWS::SSM::Parameter', properties: { Name: AL2023, Type: 'String', Value: 'x' } }),
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('can\'t be prefixed with \\"aws\\" or \\"ssm\\"');
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'ami-1' }));
    expect(Stacks![0].StackStatus).toBe('CREATE_COMPLETE');
  });
});
