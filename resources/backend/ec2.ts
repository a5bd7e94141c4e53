// EC2 in the backend: AWS::EC2::VPC, AWS::EC2::Subnet and AWS::EC2::SecurityGroup (with its inline rules).
import { family } from './family.js';
import type { BackendCall, BackendOps } from './provider.js';
import { tagList } from './values.js';

const { sdk, client } = family('ec2', (m) => m.EC2Client);

const tagged = (type: string, tags: unknown) => {
  const list = tagList(tags);
  return list ? [{ ResourceType: type as never, Tags: list }] : undefined;
};

const isTrue = (v: unknown) => v === true || v === 'true';

export const VPC: BackendOps = {
  service: 'Ec2',
  async create(call) {
    const m = await sdk();
    const ec2 = await client(call);
    const p = call.req.properties;
    const { Vpc } = await ec2.send(
      new m.CreateVpcCommand({
        CidrBlock: p.CidrBlock as string | undefined,
        InstanceTenancy: p.InstanceTenancy as never,
        TagSpecifications: tagged('vpc', p.Tags),
      }),
    );
    const id = Vpc!.VpcId!;
    if (p.EnableDnsHostnames !== undefined)
      await ec2.send(
        new m.ModifyVpcAttributeCommand({ VpcId: id, EnableDnsHostnames: { Value: isTrue(p.EnableDnsHostnames) } }),
      );
    const groups = await ec2.send(
      new m.DescribeSecurityGroupsCommand({
        Filters: [
          { Name: 'vpc-id', Values: [id] },
          { Name: 'group-name', Values: ['default'] },
        ],
      }),
    );
    return {
      physicalId: id,
      attributes: {
        VpcId: id,
        CidrBlock: Vpc!.CidrBlock,
        DefaultSecurityGroup: groups.SecurityGroups?.[0]?.GroupId,
      },
    };
  },
  async delete(call) {
    const m = await sdk();
    await (await client(call)).send(new m.DeleteVpcCommand({ VpcId: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const { Vpcs } = await (await client(call)).send(new m.DescribeVpcsCommand({ VpcIds: [call.physicalId] }));
    const v = Vpcs?.[0];
    return v ? { CidrBlock: v.CidrBlock, InstanceTenancy: v.InstanceTenancy } : undefined;
  },
};

export const SUBNET: BackendOps = {
  service: 'Ec2',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const { Subnet } = await (
      await client(call)
    ).send(
      new m.CreateSubnetCommand({
        VpcId: String(p.VpcId),
        CidrBlock: p.CidrBlock as string | undefined,
        AvailabilityZone: p.AvailabilityZone as string | undefined,
        TagSpecifications: tagged('subnet', p.Tags),
      }),
    );
    return {
      physicalId: Subnet!.SubnetId!,
      attributes: {
        SubnetId: Subnet!.SubnetId,
        VpcId: Subnet!.VpcId,
        AvailabilityZone: Subnet!.AvailabilityZone,
        CidrBlock: Subnet!.CidrBlock,
      },
    };
  },
  async delete(call) {
    const m = await sdk();
    await (await client(call)).send(new m.DeleteSubnetCommand({ SubnetId: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const { Subnets } = await (await client(call)).send(new m.DescribeSubnetsCommand({ SubnetIds: [call.physicalId] }));
    const s = Subnets?.[0];
    return s ? { VpcId: s.VpcId, CidrBlock: s.CidrBlock, AvailabilityZone: s.AvailabilityZone } : undefined;
  },
};

interface Rule {
  IpProtocol?: unknown;
  FromPort?: unknown;
  ToPort?: unknown;
  CidrIp?: string;
}

const permissions = (rules: unknown) =>
  (Array.isArray(rules) ? (rules as Rule[]) : []).map((r) => ({
    IpProtocol: String(r.IpProtocol),
    FromPort: r.FromPort === undefined ? undefined : Number(r.FromPort),
    ToPort: r.ToPort === undefined ? undefined : Number(r.ToPort),
    IpRanges: r.CidrIp ? [{ CidrIp: r.CidrIp }] : undefined,
  }));

async function ingress(call: BackendCall, groupId: string): Promise<void> {
  const m = await sdk();
  const rules = permissions(call.req.properties.SecurityGroupIngress);
  if (rules.length === 0) return;
  await (
    await client(call)
  ).send(new m.AuthorizeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: rules }));
}

export const SECURITY_GROUP: BackendOps = {
  service: 'Ec2',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const made = await (
      await client(call)
    ).send(
      new m.CreateSecurityGroupCommand({
        GroupName: (p.GroupName as string | undefined) ?? call.name,
        Description: String(p.GroupDescription),
        VpcId: p.VpcId as string | undefined,
        TagSpecifications: tagged('security-group', p.Tags),
      }),
    );
    const id = made.GroupId!;
    await ingress(call, id);
    return { physicalId: id, attributes: { GroupId: id, ...(p.VpcId ? { VpcId: p.VpcId } : {}) } };
  },
  async delete(call) {
    const m = await sdk();
    await (await client(call)).send(new m.DeleteSecurityGroupCommand({ GroupId: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const { SecurityGroups } = await (
      await client(call)
    ).send(new m.DescribeSecurityGroupsCommand({ GroupIds: [call.physicalId] }));
    const g = SecurityGroups?.[0];
    return g ? { GroupName: g.GroupName, GroupDescription: g.Description, VpcId: g.VpcId } : undefined;
  },
};
