// Physical ids, ARNs and Ref values of resources, derived from the spec's identifiers and ARN templates.
import { resourceSpec, type ResourceSpec } from '../spec.js';
import { generatePhysicalName } from './naming.js';
import { arnTemplateOf, fromSample, isArnSample } from './samples.js';
import {
  DIGITS,
  HEX,
  LOWER_ALNUM,
  UPPER_ALNUM,
  randomChars,
  randomUuid,
  stableHex,
  type RandomSource,
} from './random.js';

export interface AccountContext {
  readonly account: string;
  readonly region: string;
  readonly partition: string;
}

/** The DNS suffix of the partition (`amazonaws.com`, `amazonaws.com.cn` in China). */
export function dnsSuffix(partition: string): string {
  return partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
}

// ARN service names that are not the lowercased CloudFormation namespace.
const ARN_SERVICES: Readonly<Record<string, string>> = {
  ElasticLoadBalancingV2: 'elasticloadbalancing',
  StepFunctions: 'states',
  CertificateManager: 'acm',
  Cognito: 'cognito-idp',
  KinesisFirehose: 'firehose',
  OpenSearchService: 'es',
  Elasticsearch: 'es',
  EFS: 'elasticfilesystem',
  CloudWatch: 'cloudwatch',
  ECR: 'ecr',
  SecretsManager: 'secretsmanager',
  // the services' own ARN names, as their Return values pages show them
  ResourceExplorer2: 'resource-explorer-2',
  InspectorV2: 'inspector2',
  EventSchemas: 'schemas',
  Location: 'geo',
};

/** The service part of the type's ARNs: `AWS::DynamoDB::Table` → `dynamodb`, `AWS::StepFunctions::…` → `states`. */
export function serviceOf(type: string): string {
  const namespace = type.split('::')[1] ?? '';
  return ARN_SERVICES[namespace] ?? namespace.toLowerCase();
}

/** Physical ids of named resources that are not the name itself. */
export const PHYSICAL_ID_FORMATS: Readonly<Partial<Record<string, (name: string, ctx: AccountContext) => string>>> = {
  // The queue URL, which is also what Ref returns.
  'AWS::SQS::Queue': (name, ctx) => `https://sqs.${ctx.region}.${dnsSuffix(ctx.partition)}/${ctx.account}/${name}`,
  // The topic ARN.
  'AWS::SNS::Topic': (name, ctx) => `arn:${ctx.partition}:sns:${ctx.region}:${ctx.account}:${name}`,
  // Load balancer and target group ARNs end in a 16-hex id, stable here per account, region and name.
  'AWS::ElasticLoadBalancingV2::LoadBalancer': (name, ctx) => elbArn(ctx, `loadbalancer/app/${name}`),
  'AWS::ElasticLoadBalancingV2::TargetGroup': (name, ctx) => elbArn(ctx, `targetgroup/${name}`),
};

function elbArn(ctx: AccountContext, resource: string): string {
  const id = stableHex(16, ctx.account, ctx.region, resource);
  return `arn:${ctx.partition}:elasticloadbalancing:${ctx.region}:${ctx.account}:${resource}/${id}`;
}

/**
 * The physical id of a resource named `name`: the name for most types (S3 bucket, IAM role, Lambda function, SSM
 * parameter, log group, table), the ARN when the type is identified by its ARN, and the exceptions above.
 */
export function physicalIdFor(type: string, name: string, ctx: AccountContext): string {
  const format = PHYSICAL_ID_FORMATS[type];
  if (format) return format(name, ctx);
  const spec = resourceSpec(type);
  const ref = spec?.refIdentifier ?? [];
  if (spec && ref.length === 1 && ref[0] !== spec.nameProperty && isArnName(ref[0])) {
    return arnFor(spec, spec.nameProperty ? { [spec.nameProperty]: name } : {}, name, ctx);
  }
  return name;
}

/** An identifier or attribute named as an ARN: `Arn`, `TopicArn`, and the schemas' upper-case `TableBucketARN`. */
export function isArnName(name: string): boolean {
  return /(Arn|ARN)$/.test(name);
}

/**
 * ARNs of resources that live inside another resource, named by its ARN: an S3 Tables table is
 * `<table bucket ARN>/table/<table id>` (a UUID the service gives), its ARN being its Ref and physical id.
 */
const ARNS_INSIDE: Readonly<
  Partial<
    Record<string, (properties: Readonly<Record<string, unknown>>, name: string, args: NewIdentityArgs) => string>
  >
> = {
  'AWS::S3Tables::Table': (properties, name, { ctx, random }) => {
    const bucket = properties.TableBucketARN;
    const base =
      typeof bucket === 'string' && bucket.startsWith('arn:')
        ? bucket
        : `arn:${ctx.partition}:s3tables:${ctx.region}:${ctx.account}:bucket/${String(bucket ?? name)}`;
    return `${base}/table/${randomUuid(random)}`;
  },
};

/** The id formats of types identified by a service-generated id rather than a name. */
export const ID_FORMATS: Readonly<Partial<Record<string, (random: RandomSource, ctx: AccountContext) => string>>> = {
  ...ec2Ids({
    VPC: 'vpc',
    Subnet: 'subnet',
    SecurityGroup: 'sg',
    Instance: 'i',
    InternetGateway: 'igw',
    RouteTable: 'rtb',
    NatGateway: 'nat',
    NetworkAcl: 'acl',
    NetworkInterface: 'eni',
    Volume: 'vol',
    TransitGateway: 'tgw',
    TransitGatewayAttachment: 'tgw-attach',
    TransitGatewayRouteTable: 'tgw-rtb',
    VPCEndpoint: 'vpce',
    LaunchTemplate: 'lt',
    DHCPOptions: 'dopt',
    VPCPeeringConnection: 'pcx',
    CustomerGateway: 'cgw',
    VPNGateway: 'vgw',
    VPNConnection: 'vpn',
    EgressOnlyInternetGateway: 'eigw',
    PrefixList: 'pl',
    FlowLog: 'fl',
    SubnetRouteTableAssociation: 'rtbassoc',
    SubnetNetworkAclAssociation: 'aclassoc',
    KeyPair: 'key',
    SecurityGroupIngress: 'sgr',
    SecurityGroupEgress: 'sgr',
    CarrierGateway: 'cagw',
    CapacityReservation: 'cr',
    Host: 'h',
    NetworkInterfaceAttachment: 'eni-attach',
    VPCCidrBlock: 'vpc-cidr-assoc',
    EIPAssociation: 'eipassoc',
  }),
  // Ref of an Elastic IP is the address itself.
  'AWS::EC2::EIP': (random) => `3.${randomOctets(random, 3)}`,
  'AWS::KMS::Key': (random) => randomUuid(random),
  'AWS::ApiGateway::RestApi': (random) => randomChars(random, 10, LOWER_ALNUM),
  // API keys (and so usage plan keys, which are identified by their key) have 10 characters (`m2m1k7sybf`), usage
  // plans and request validators 6 (`abc123`).
  'AWS::ApiGateway::ApiKey': (random) => randomChars(random, 10, LOWER_ALNUM),
  'AWS::ApiGateway::UsagePlanKey': (random) => randomChars(random, 10, LOWER_ALNUM),
  'AWS::ApiGateway::UsagePlan': (random) => randomChars(random, 6, LOWER_ALNUM),
  'AWS::ApiGateway::RequestValidator': (random) => randomChars(random, 6, LOWER_ALNUM),
  'AWS::ApiGateway::Resource': (random) => randomChars(random, 6, LOWER_ALNUM),
  'AWS::ApiGateway::Deployment': (random) => randomChars(random, 6, LOWER_ALNUM),
  // `a1bcdef2gh` in the API Gateway developer guide: 10 characters, as a REST API's.
  'AWS::ApiGatewayV2::Api': (random) => randomChars(random, 10, LOWER_ALNUM),
  'AWS::Cognito::UserPool': (random, ctx) => `${ctx.region}_${randomChars(random, 9)}`,
  'AWS::Cognito::UserPoolClient': (random) => randomChars(random, 26, LOWER_ALNUM),
  'AWS::CloudFront::Distribution': (random) => `E${randomChars(random, 13, UPPER_ALNUM)}`,
  'AWS::CloudFront::CloudFrontOriginAccessIdentity': (random) => `E${randomChars(random, 13, UPPER_ALNUM)}`,
  // `alias-1111aaaa-22bb-33cc-44dd-5555eeee66ff`, and so builds, fleets and scripts
  ...Object.fromEntries(
    ['Alias', 'Build', 'Fleet', 'Script'].map((kind) => [
      `AWS::GameLift::${kind}`,
      (random: RandomSource) => `${kind.toLowerCase()}-${randomUuid(random)}`,
    ]),
  ),
  'AWS::Route53::HostedZone': (random) => `Z0${randomChars(random, 19, UPPER_ALNUM)}`,
  // Ref of an access key is the access key id.
  'AWS::IAM::AccessKey': (random) => `AKIA${randomChars(random, 16, UPPER_ALNUM)}`,
};

function ec2Ids(prefixes: Record<string, string>): Record<string, (random: RandomSource) => string> {
  const out: Record<string, (random: RandomSource) => string> = {};
  for (const [name, prefix] of Object.entries(prefixes)) out[`AWS::EC2::${name}`] = (random) => ec2Id(prefix, random);
  return out;
}

/** An EC2-style id: prefix, dash, 17 hex digits (`vpc-0a1b2c3d4e5f67890`). */
export function ec2Id(prefix: string, random: RandomSource): string {
  return `${prefix}-0${randomChars(random, 16, HEX)}`;
}

export function randomOctets(random: RandomSource, count: number): string {
  const digits = randomChars(random, count * 3, DIGITS);
  return Array.from({ length: count }, (_, i) => String((Number(digits.slice(i * 3, i * 3 + 3)) % 254) + 1)).join('.');
}

/**
 * Types whose name property is not the resource's identity: an inline IAM policy's PolicyName is the same on many
 * roles (CDK names every default policy after its construct path), so its id is a generated name and two stacks'
 * same-named policies do not collide.
 */
export const NAME_NOT_IDENTITY: ReadonlySet<string> = new Set(['AWS::IAM::Policy']);

export interface NewIdentityArgs {
  readonly type: string;
  readonly logicalId: string;
  readonly stackName: string;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly ctx: AccountContext;
  readonly random: RandomSource;
}

export interface NewIdentity {
  readonly physicalId: string;
  /** The physical name, for types that have a name property (given in the template or generated). */
  readonly name?: string;
}

/**
 * Whether the type's Ref (and physical id) is a name unique only within a parent: an API Gateway stage in its API,
 * a record set in its zone (with its type and set identifier), a log stream in its log group, a Cognito group in
 * its user pool. The schema's primary identifier holds the name and the parent's identifiers; the name is a property.
 */
export function isScopedName(spec: ResourceSpec): boolean {
  const ref = spec.refIdentifier;
  return (
    ref.length === 1 &&
    spec.primaryIdentifier.length > 1 &&
    spec.primaryIdentifier.includes(ref[0]) &&
    ref[0] in spec.properties &&
    !REF_EXCEPTIONS[spec.type]
  );
}

/**
 * The key the simulated account keeps a resource under: its physical id, or for a scoped name (isScopedName) the
 * primary identifier's values joined with `|`, as Cloud Control names it (`a1bcdef2gh|Prod`), so that two APIs'
 * `Prod` stages do not collide. `properties` are the resource's as the stack last wrote them.
 */
export function worldIdOf(type: string, physicalId: string, properties: Readonly<Record<string, unknown>>): string {
  const spec = resourceSpec(type);
  if (!spec || !isScopedName(spec) || physicalId.includes('|')) return physicalId;
  const ref = spec.refIdentifier[0];
  return spec.primaryIdentifier
    .map((key) => (key === ref ? physicalId : isPresent(properties[key]) ? String(properties[key]) : ''))
    .join('|');
}

/** The physical id (and name) a new resource gets: its given or generated name, or a service-style id. */
export function newIdentity(args: NewIdentityArgs): NewIdentity {
  const spec = resourceSpec(args.type);
  if (NAME_NOT_IDENTITY.has(args.type)) return { physicalId: generatePhysicalName(args) };
  // a name unique only within its parent is the physical id, but not a name taken account-wide
  if (spec && isScopedName(spec)) {
    const given = args.properties[spec.refIdentifier[0]];
    return { physicalId: isPresent(given) ? String(given) : generatePhysicalName(args) };
  }
  const nameProperty = spec?.nameProperty;
  if (spec && REF_IS_ARN.has(args.type)) {
    const given = nameProperty ? args.properties[nameProperty] : undefined;
    const name = isPresent(given) ? String(given) : generatePhysicalName(args);
    return { physicalId: refArn(spec, name, args), ...(nameProperty ? { name } : {}) };
  }
  if (nameProperty) {
    const given = args.properties[nameProperty];
    const name = isPresent(given) ? String(given) : generatePhysicalName(args);
    const inside = ARNS_INSIDE[args.type];
    if (inside) return { physicalId: inside(args.properties, name, args), name };
    if (hasSeparateId(spec)) return { physicalId: serviceId(spec, name, args), name };
    return { physicalId: physicalIdFor(args.type, name, args.ctx), name };
  }
  const format = ID_FORMATS[args.type];
  if (format) return { physicalId: format(args.random, args.ctx) };
  const compound = spec && compoundId(spec, args.properties);
  if (compound) return { physicalId: compound };
  const name = generatePhysicalName(args);
  const documented = spec && documentedId(spec, name, args);
  if (documented) return { physicalId: documented, name };
  const ref = spec?.refIdentifier ?? [];
  // A type identified by its ARN has an ARN for a physical id (and Ref), from the spec's template or the default form.
  if (spec && ref.length === 1 && isArnName(ref[0])) {
    return { physicalId: arnFor(spec, args.properties, name, args.ctx), name };
  }
  return { physicalId: name };
}

/**
 * Types whose name property is not what Ref returns although their schema identifies them by a separate id, because
 * their Return values pages say Ref returns the name ("returns the table name", "the name of the container").
 */
export const REF_IS_NAME: ReadonlySet<string> = new Set([
  'AWS::AppIntegrations::DataIntegration',
  'AWS::CloudFormation::Macro',
  'AWS::FinSpace::Environment',
  'AWS::Glue::Table',
  'AWS::MediaLive::Channel',
  'AWS::MediaStore::Container',
  'AWS::PinpointEmail::ConfigurationSet',
  'AWS::PinpointEmail::Identity',
  'AWS::QLDB::Ledger',
]);

/**
 * Types whose Return values pages say Ref returns the resource's ARN although their schema identifies them otherwise
 * (by an id, by its name, or by several properties); their physical id is that ARN too.
 */
export const REF_IS_ARN: ReadonlySet<string> = new Set([
  'AWS::ApplicationAutoScaling::ScalingPolicy',
  'AWS::Config::AggregationAuthorization',
  'AWS::DevOpsGuru::NotificationChannel',
  'AWS::DMS::ReplicationInstance',
  'AWS::GroundStation::DataflowEndpointGroup',
  'AWS::GroundStation::MissionProfile',
  'AWS::InternetMonitor::Monitor',
  'AWS::Omics::ReferenceStore',
  'AWS::SecretsManager::Secret',
]);

/** The ARN a REF_IS_ARN type is referred to by: the id part in the format its page shows, else its name. */
function refArn(spec: ResourceSpec, name: string, args: NewIdentityArgs): string {
  const ids = spec.refIdentifier.filter((id) => !isArnName(id));
  const id = (ids.length === 1 && fromSample(spec.attributeSamples[ids[0]], { ...args, label: name })) || name;
  return arnFor(
    spec,
    { ...args.properties, ...(spec.nameProperty ? { [spec.nameProperty]: name } : {}) },
    id,
    args.ctx,
  );
}

/**
 * Whether a type with a name property is identified by a separate, service-generated id (an API key's `APIKeyId`,
 * a Cloud Map namespace's `ns-…`, a launch template's `lt-…`): its schema's identifier is one property that is
 * neither the name nor an ARN, and its page does not say Ref returns the name.
 */
export function hasSeparateId(spec: ResourceSpec): boolean {
  const ref = spec.refIdentifier;
  return (
    ref.length === 1 &&
    ref[0] !== spec.nameProperty &&
    !isArnName(ref[0]) &&
    !REF_IS_NAME.has(spec.type) &&
    !PHYSICAL_ID_FORMATS[spec.type] &&
    !NAME_NOT_IDENTITY.has(spec.type)
  );
}

/** The service-generated id of a named resource: in the service's format where known, else a generated one. */
function serviceId(spec: ResourceSpec, name: string, args: NewIdentityArgs): string {
  const format = ID_FORMATS[spec.type];
  if (format) return format(args.random, args.ctx);
  return documentedId(spec, name, args) ?? generatePhysicalName({ ...args, properties: {} });
}

/**
 * A service-generated id in the format of the sample AWS's user guide shows for Ref (or for the identifier
 * attribute): `fs-0123456789abcdef0`, a UUID, `arn:aws:datasync:…:location/…`. An ARN identifier keeps the spec's
 * template where it has one.
 */
function documentedId(spec: ResourceSpec, name: string, args: NewIdentityArgs): string | undefined {
  const ref = spec.refIdentifier;
  if (ref.length !== 1) return undefined;
  const sample = spec.refSample ?? spec.attributeSamples[ref[0]];
  if (isArnSample(sample) && spec.arnTemplate) return undefined;
  return fromSample(sample, { ctx: args.ctx, random: args.random, label: name });
}

// A type identified by several of its own properties (an API Gateway method, a Lambda permission's function…)
// is identified by their values joined with `|`, as Cloud Control does.
function compoundId(spec: ResourceSpec, properties: Readonly<Record<string, unknown>>): string | undefined {
  const ref = spec.refIdentifier;
  if (ref.length < 2 || !ref.every((k) => isPresent(properties[k]))) return undefined;
  return ref.map((k) => String(properties[k])).join('|');
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/**
 * Fills the spec's ARN template: `${Partition}`, `${Region}`, `${Account}`, then identifier placeholders from
 * `values` (properties and attributes); `…WithPath` joins the Path property, `…WithoutLeadingSlash` strips it, and
 * any other placeholder takes `name`. Types without a template get `arn:<p>:<service>:<region>:<account>:<type>/<name>`.
 */
export function arnFor(
  spec: ResourceSpec,
  values: Readonly<Record<string, unknown>>,
  name: string,
  ctx: AccountContext,
): string {
  const template =
    spec.arnTemplate ??
    arnTemplateOf(ownArnSample(spec)) ??
    `arn:\${Partition}:${serviceOf(spec.type)}:\${Region}:\${Account}:${kebab(spec.type.split('::')[2] ?? '')}/\${Name}`;
  return template.replace(/\$\{([^}]+)\}/g, (_, key: string) => placeholder(key, values, name, ctx));
}

/** The sample AWS's user guide shows for the type's own ARN: Ref's, the ARN identifier's, or the `Arn` attribute's. */
function ownArnSample(spec: ResourceSpec): string | undefined {
  const short = spec.type.split('::')[2] ?? '';
  const ref = spec.refIdentifier.length === 1 ? spec.refIdentifier[0] : 'Arn';
  return [
    spec.refSample,
    spec.attributeSamples[ref],
    spec.attributeSamples.Arn,
    spec.attributeSamples[`${short}Arn`],
  ].find((sample) => sample?.startsWith('arn:'));
}

function placeholder(
  key: string,
  values: Readonly<Record<string, unknown>>,
  name: string,
  ctx: AccountContext,
): string {
  if (key === 'Partition') return ctx.partition;
  if (key === 'Region') return ctx.region;
  if (key === 'Account' || key === 'AccountId') return ctx.account;
  if (key.endsWith('WithPath')) return withPath(values.Path, name);
  if (key.endsWith('WithoutLeadingSlash')) return name.replace(/^\//, '');
  const direct = values[key];
  if (isPresent(direct) && typeof direct !== 'object') return String(direct);
  return name;
}

function withPath(path: unknown, name: string): string {
  const p = typeof path === 'string' && path.startsWith('/') ? path : '/';
  return `${p.slice(1)}${name}`;
}

export function kebab(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

export interface RefArgs {
  readonly type: string;
  readonly physicalId: string;
  readonly attributes?: Readonly<Record<string, unknown>>;
}

/**
 * Ref values that are spelled out rather than left to the physical id. On AWS, Ref returns the physical id for
 * nearly every type; these entries name the attribute it equals, so a family file overriding the attribute
 * keeps Ref consistent.
 */
export const REF_EXCEPTIONS: Readonly<Record<string, string>> = {
  'AWS::SQS::Queue': 'QueueUrl',
  'AWS::SNS::Topic': 'TopicArn',
  'AWS::EC2::EIP': 'PublicIp',
};

/** What `Ref` returns for a resource. */
export function refValue(args: RefArgs): string {
  const attribute = REF_EXCEPTIONS[args.type];
  const value = attribute ? args.attributes?.[attribute] : undefined;
  return typeof value === 'string' ? value : args.physicalId;
}
