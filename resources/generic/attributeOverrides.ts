// Per-type Fn::GetAtt values whose format the spec cannot tell: domain names, endpoints, service-generated ids.
import { dnsLabel, resourceArn, type AttributeContext } from './attributeContext.js';
import { ec2Id } from './identity.js';
import { interfaceAddresses, privateAddress } from './addresses.js';
import { DIGITS, LOWER_ALNUM, UPPER_ALNUM, randomChars, stableChars } from './random.js';

const UPPER_HEX = '0123456789ABCDEF';

type Generator = (c: AttributeContext) => unknown;

// S3 website endpoints use `s3-website-<region>` in the regions that predate 2014 and `s3-website.<region>` elsewhere.
const DASH_WEBSITE_REGIONS = new Set([
  'us-east-1',
  'us-west-1',
  'us-west-2',
  'eu-west-1',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-northeast-1',
  'sa-east-1',
  'us-gov-west-1',
]);

// RDS endpoints carry a 12-character label that is fixed per account and region.
function rdsLabel(c: AttributeContext): string {
  return `c${stableChars(11, LOWER_ALNUM, 'rds', c.ctx.account, c.ctx.region)}`;
}

const ENGINE_PORTS: Readonly<Record<string, number>> = {
  mysql: 3306,
  mariadb: 3306,
  'aurora-mysql': 3306,
  aurora: 3306,
  postgres: 5432,
  'aurora-postgresql': 5432,
  oracle: 1521,
  sqlserver: 1433,
  db2: 50000,
};

function dbPort(c: AttributeContext): string {
  if (c.properties.Port !== undefined) return String(c.properties.Port);
  const engine = String(c.properties.Engine ?? 'mysql').toLowerCase();
  // The exact engine name first: `aurora-postgresql` also starts with `aurora-`.
  const family =
    (engine in ENGINE_PORTS ? engine : Object.keys(ENGINE_PORTS).find((e) => engine.startsWith(`${e}-`))) ?? 'mysql';
  return String(ENGINE_PORTS[family]);
}

function rdsHost(c: AttributeContext, infix = ''): string {
  return `${dnsLabel(c)}.${infix}${rdsLabel(c)}.${c.ctx.region}.rds.${c.dns}`;
}

function az(c: AttributeContext): string {
  const given = c.properties.AvailabilityZone;
  return typeof given === 'string' ? given : `${c.ctx.region}a`;
}

// `us-east-1` → `use1-az1`, `ap-northeast-2` → `apne2-az1`.
function azId(c: AttributeContext): string {
  const [geo = '', dir = '', n = ''] = c.ctx.region.split('-');
  const compass = (dir.match(/north|south|east|west|central/g) ?? []).map((w) => w[0]).join('');
  return `${geo}${compass}${n}-az1`;
}

// Addresses derive from the physical id so that the IP and the DNS name built from it agree.
function stableOctets(c: AttributeContext, salt: string, count: number): string {
  const digits = stableChars(count * 3, DIGITS, salt, c.physicalId);
  return Array.from({ length: count }, (_, i) => String((Number(digits.slice(i * 3, i * 3 + 3)) % 254) + 1)).join('.');
}

function privateIp(c: AttributeContext): string {
  const given = c.properties.PrivateIpAddress;
  return typeof given === 'string' ? given : privateAddress(c);
}

function publicIp(c: AttributeContext): string {
  return `3.${stableOctets(c, 'public', 3)}`;
}

function ec2Dns(c: AttributeContext, ip: string, isPublic: boolean): string {
  const dashed = ip.replace(/\./g, '-');
  const east = c.ctx.region === 'us-east-1';
  if (isPublic) return `ec2-${dashed}.${east ? 'compute-1' : `${c.ctx.region}.compute`}.${c.dns}`;
  return `ip-${dashed}.${east ? 'ec2.internal' : `${c.ctx.region}.compute.internal`}`;
}

function iamId(prefix: string): Generator {
  return (c) => `${prefix}${randomChars(c.random, 17, UPPER_ALNUM)}`;
}

const sameAsId: Generator = (c) => c.physicalId;

const tableArn = (c: AttributeContext) =>
  `arn:${c.ctx.partition}:dynamodb:${c.ctx.region}:${c.ctx.account}:table/${c.name ?? c.physicalId}`;

export const ATTRIBUTE_OVERRIDES: Readonly<Partial<Record<string, Readonly<Partial<Record<string, Generator>>>>>> = {
  'AWS::S3::Bucket': {
    DomainName: (c) => `${c.physicalId}.s3.${c.dns}`,
    RegionalDomainName: (c) => `${c.physicalId}.s3.${c.ctx.region}.${c.dns}`,
    DualStackDomainName: (c) => `${c.physicalId}.s3.dualstack.${c.ctx.region}.${c.dns}`,
    WebsiteURL: (c) => {
      const sep = DASH_WEBSITE_REGIONS.has(c.ctx.region) ? '-' : '.';
      return `http://${c.physicalId}.s3-website${sep}${c.ctx.region}.${c.dns}`;
    },
  },
  'AWS::IAM::Role': { RoleId: iamId('AROA') },
  'AWS::IAM::User': { UserId: iamId('AIDA') },
  'AWS::IAM::Group': { GroupId: iamId('AGPA') },
  'AWS::IAM::InstanceProfile': { InstanceProfileId: iamId('AIPA') },
  'AWS::IAM::ManagedPolicy': {
    PolicyId: iamId('ANPA'),
    DefaultVersionId: () => 'v1',
    AttachmentCount: () => 0,
    PermissionsBoundaryUsageCount: () => 0,
    IsAttachable: () => true,
  },
  // The log group ARN that GetAtt returns ends with `:*`.
  'AWS::Logs::LogGroup': { Arn: (c) => `${resourceArn(c)}:*` },
  'AWS::DynamoDB::Table': {
    StreamArn: (c) => `${resourceArn(c)}/stream/${c.now.toISOString().replace('Z', '')}`,
  },
  // A global table's ARN is its table's in the stack's region (`arn:aws:dynamodb:us-east-2:…:table/<name>`), as the
  // Return values page shows, not the schema's `global-table/` form.
  'AWS::DynamoDB::GlobalTable': {
    Arn: (c) => tableArn(c),
    StreamArn: (c) => `${tableArn(c)}/stream/${c.now.toISOString().replace('Z', '')}`,
  },
  'AWS::Lambda::Function': {
    'SnapStartResponse.ApplyOn': () => 'None',
    'SnapStartResponse.OptimizationStatus': () => 'Off',
  },
  // Function URLs live on their own domain: https://<32 lowercase alphanumerics>.lambda-url.<region>.on.aws/
  'AWS::Lambda::Url': {
    FunctionUrl: (c) =>
      `https://${stableChars(32, LOWER_ALNUM, 'lambda-url', c.physicalId)}.lambda-url.${c.ctx.region}.on.aws/`,
  },
  'AWS::RDS::DBInstance': {
    'Endpoint.Address': (c) => rdsHost(c),
    'Endpoint.Port': dbPort,
    'Endpoint.HostedZoneId': () => 'Z2R2ITUGPM61AM',
    DbiResourceId: (c) => `db-${randomChars(c.random, 26, UPPER_ALNUM)}`,
    DBInstanceStatus: () => 'available',
    'CertificateDetails.CAIdentifier': () => 'rds-ca-rsa2048-g1',
  },
  'AWS::RDS::DBCluster': {
    'Endpoint.Address': (c) => rdsHost(c, 'cluster-'),
    'Endpoint.Port': dbPort,
    'ReadEndpoint.Address': (c) => rdsHost(c, 'cluster-ro-'),
    DBClusterResourceId: (c) => `cluster-${randomChars(c.random, 26, UPPER_ALNUM)}`,
  },
  // Distribution domains are d + 13 lowercase alphanumerics under cloudfront.net, in every region.
  'AWS::CloudFront::Distribution': {
    DomainName: (c) => `d${stableChars(13, LOWER_ALNUM, 'cloudfront', c.physicalId)}.cloudfront.net`,
  },
  'AWS::EKS::Cluster': {
    Endpoint: (c) => `https://${stableChars(32, UPPER_HEX, 'eks', c.physicalId)}.gr7.${c.ctx.region}.eks.${c.dns}`,
    OpenIdConnectIssuerUrl: (c) =>
      `https://oidc.eks.${c.ctx.region}.${c.dns}/id/${stableChars(32, UPPER_HEX, 'eks', c.physicalId)}`,
  },
  'AWS::Neptune::DBCluster': { Port: (c) => String(c.properties.Port ?? 8182) },
  'AWS::DocDB::DBCluster': { Port: (c) => String(c.properties.Port ?? 27017) },
  'AWS::EC2::VPC': {
    CidrBlockAssociations: (c) => [ec2Id('vpc-cidr-assoc', c.random)],
    Ipv6CidrBlocks: () => [],
  },
  'AWS::EC2::Subnet': {
    AvailabilityZone: az,
    AvailabilityZoneId: azId,
    Ipv6CidrBlocks: () => [],
  },
  'AWS::EC2::SecurityGroup': { GroupId: sameAsId, Id: sameAsId },
  'AWS::EC2::Instance': {
    AvailabilityZone: az,
    PrivateIp: privateIp,
    PrivateDnsName: (c) => ec2Dns(c, privateIp(c), false),
    PublicIp: publicIp,
    PublicDnsName: (c) => ec2Dns(c, publicIp(c), true),
  },
  'AWS::EC2::EIP': { AllocationId: (c) => ec2Id('eipalloc', c.random) },
  // Addresses come from the subnet's CIDR, or are the ones the template asked for.
  'AWS::EC2::NetworkInterface': {
    PrimaryPrivateIpAddress: (c) => interfaceAddresses(c).primary,
    SecondaryPrivateIpAddresses: (c) => interfaceAddresses(c).secondary,
  },
  'AWS::EFS::MountTarget': {
    IpAddress: (c) => (typeof c.properties.IpAddress === 'string' ? c.properties.IpAddress : privateAddress(c)),
  },
  'AWS::KMS::Key': { KeyId: sameAsId },
  // A public zone is served by four name servers, one per top-level domain, chosen per zone.
  'AWS::Route53::HostedZone': {
    NameServers: (c) =>
      ['com', 'net', 'org', 'co.uk'].map((tld, i) => {
        const n = Number(stableChars(4, DIGITS, 'ns', c.physicalId, String(i))) % 2048;
        return `ns-${n}.awsdns-${String(n % 64).padStart(2, '0')}.${tld}`;
      }),
  },
  'AWS::ElasticLoadBalancingV2::LoadBalancer': {
    DNSName: (c) => `${c.name ?? dnsLabel(c)}-${randomChars(c.random, 10, DIGITS)}.${c.ctx.region}.elb.${c.dns}`,
    CanonicalHostedZoneID: () => 'Z35SXDOTRQ7X7K',
    LoadBalancerName: (c) => c.name,
    LoadBalancerFullName: (c) => c.physicalId.split(':loadbalancer/')[1],
  },
  // `<account>.dkr.ecr.<region>.amazonaws.com/<name>` (the Return values page's example).
  'AWS::ECR::Repository': {
    RepositoryUri: (c) => `${c.ctx.account}.dkr.ecr.${c.ctx.region}.${c.dns}/${c.name ?? c.physicalId}`,
  },
  // API Gateway's resource ids are 10 lowercase alphanumerics, as its API ids (`a1bcdef2gh`).
  'AWS::ApiGateway::RestApi': { RootResourceId: (c) => randomChars(c.random, 10, LOWER_ALNUM) },
  // `https://<api-id>.execute-api.<region>.amazonaws.com` (wss:// for a WebSocket API).
  'AWS::ApiGatewayV2::Api': {
    ApiEndpoint: (c) =>
      `${c.properties.ProtocolType === 'WEBSOCKET' ? 'wss' : 'https'}://${c.physicalId}.execute-api.${c.ctx.region}.${c.dns}`,
  },
};
