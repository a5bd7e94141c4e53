// Fn::GetAtt values derived from the resource's properties where AWS derives them: an ENI's primary and secondary
// private addresses are the ones asked for, or assigned inside the subnet's CIDR, so `!Select [0, …]` works.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-ec2-networkinterface.html#aws-resource-ec2-networkinterface-return-values
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const TEMPLATE = `
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties:
      CidrBlock: 10.20.0.0/16
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Vpc
      CidrBlock: 10.20.30.0/24
  Listed:
    Type: AWS::EC2::NetworkInterface
    Properties:
      SubnetId: !Ref Subnet
      PrivateIpAddresses:
        - PrivateIpAddress: 10.20.30.10
          Primary: true
        - PrivateIpAddress: 10.20.30.11
          Primary: false
  Counted:
    Type: AWS::EC2::NetworkInterface
    Properties:
      SubnetId: !Ref Subnet
      SecondaryPrivateIpAddressCount: 2
  Plain:
    Type: AWS::EC2::NetworkInterface
    Properties:
      SubnetId: !Ref Subnet
  Instance:
    Type: AWS::EC2::Instance
    Properties:
      ImageId: ami-0123456789abcdef0
      SubnetId: !Ref Subnet
Outputs:
  ListedPrimary: { Value: !GetAtt Listed.PrimaryPrivateIpAddress }
  ListedSecondary: { Value: !Select [0, !GetAtt Listed.SecondaryPrivateIpAddresses] }
  CountedPrimary: { Value: !GetAtt Counted.PrimaryPrivateIpAddress }
  CountedSecondary: { Value: !Join [',', !GetAtt Counted.SecondaryPrivateIpAddresses] }
  PlainSecondary: { Value: !Join [',', !GetAtt Plain.SecondaryPrivateIpAddresses] }
  InstanceIp: { Value: !GetAtt Instance.PrivateIp }
`;

describe('addresses of network interfaces and instances', () => {
  it('are the addresses asked for, or distinct addresses inside the subnet', async () => {
    const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'eni', TemplateBody: TEMPLATE }));
    const stack = await waitForStack(server.client, StackId!);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const out = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey, o.OutputValue!]));
    expect(out.ListedPrimary).toBe('10.20.30.10');
    expect(out.ListedSecondary).toBe('10.20.30.11');
    const inSubnet = /^10\.20\.30\.(\d+)$/;
    expect(out.CountedPrimary).toMatch(inSubnet);
    const counted = out.CountedSecondary.split(',');
    expect(counted).toHaveLength(2);
    for (const ip of counted) expect(ip).toMatch(inSubnet);
    expect(new Set([out.CountedPrimary, ...counted]).size).toBe(3);
    // AWS reserves the first four addresses and the last of a subnet
    for (const ip of [out.CountedPrimary, ...counted, out.InstanceIp])
      expect(Number(inSubnet.exec(ip)![1])).toBeGreaterThanOrEqual(4);
    expect(out.PlainSecondary).toBe('');
    expect(out.InstanceIp).toMatch(inSubnet);
  });
});

describe('attributes AWS documents beyond the specification', () => {
  it('Fn::GetAtt Domain.DomainArn reads the domain ARN (OpenSearch and Elasticsearch)', async () => {
    const body = `
Resources:
  Search:
    Type: AWS::OpenSearchService::Domain
  Legacy:
    Type: AWS::Elasticsearch::Domain
Outputs:
  DomainArn: { Value: !GetAtt Search.DomainArn }
  Arn: { Value: !GetAtt Search.Arn }
  LegacyArn: { Value: !GetAtt Legacy.DomainArn }
`;
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'domain-arn', TemplateBody: body }),
    );
    const stack = await waitForStack(server.client, StackId!);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const out = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey, o.OutputValue!]));
    expect(out.DomainArn).toBe(out.Arn);
    expect(out.LegacyArn).toMatch(/^arn:aws:es:us-east-1:000000000000:domain\//);
  });
});
