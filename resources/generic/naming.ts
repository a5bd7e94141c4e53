// Generated physical names: what CloudFormation names a resource whose name property the template leaves out.
//
// The shape is `<StackName>-<LogicalId>-<12 alphanumerics>` (e.g. `stack-0d03b713-Function-ijoJmdBJP4re`, LocalStack
// snapshot test_drift_detection). When that is longer than the service allows, CloudFormation shortens the stack
// and logical parts, never the suffix. Real names show the split: the two parts share the room left by the suffix and
// the dashes; a part shorter than its half keeps its length and gives the rest to the other
// (`AppStack-CustomCDKBucketDeployment8693BB64968944B6-GQdSBL5N4uaZ`,
// `OpenNextDemoStack-CustomCDKBucketDeployment8693BB6-B9h0nFhJCUWz`,
// `StackSet-StackSetPasswordPolicy-5-LambdaFunctionV2-0S9vD8e4SOH0` for Lambda; `SapAnalyzer4Stack-
// CustomCDKBucketDeployment8693BB64-Yb68O7HgOaxH` for an IAM role; `StackSet-AWS-Landing-Zone-
// ForwardSnsNotificationLa-1XDDEMJLM5D3V` where both parts were cut, the stack part taking the odd character).
import { ALNUM, UPPER_ALNUM, randomChars, type RandomSource } from './random.js';

export interface NameRule {
  /** The longest name the service accepts (or that CloudFormation generates for it). */
  readonly maxLength?: number;
  /** Lowercase the whole name (S3 and RDS refuse or fold capitals). */
  readonly lowercase?: boolean;
  /** Replaces the stack name in the first part. */
  readonly prefix?: string;
  /** The boolean property that makes the resource FIFO; FIFO names must end in `.fifo`. */
  readonly fifoProperty?: string;
  /** Fixed lengths for the stack and logical parts (Elastic Load Balancing v2 cuts both hard). */
  readonly partLengths?: readonly [stack: number, logical: number];
  /** `<LogicalId>-<suffix>`, no stack name (Secrets Manager). */
  readonly withoutStack?: true;
  /** The older handlers' suffix: 13 capitals and digits instead of 12 alphanumerics. */
  readonly legacySuffix?: true;
}

const SUFFIX_LENGTH = 12;
const LEGACY_SUFFIX_LENGTH = 13;

/** Per-type naming quirks; a type not listed uses `<stack>-<Logical>-<suffix>` with no length limit. */
export const NAME_RULES: Readonly<Record<string, NameRule>> = {
  // Bucket names: 3–63 characters, lowercase (`importstack-mybucketf68f3ff0-sn6vevzba9vr`).
  'AWS::S3::Bucket': { maxLength: 63, lowercase: true },
  // Queue names: up to 80 characters; a FIFO queue's name must end with .fifo (which counts toward the 80).
  'AWS::SQS::Queue': { maxLength: 80, fifoProperty: 'FifoQueue' },
  'AWS::SNS::Topic': { maxLength: 256, fifoProperty: 'FifoTopic' },
  'AWS::IAM::Role': { maxLength: 64 },
  'AWS::IAM::User': { maxLength: 64 },
  'AWS::IAM::Group': { maxLength: 128 },
  'AWS::IAM::ManagedPolicy': { maxLength: 128 },
  'AWS::IAM::InstanceProfile': { maxLength: 128 },
  // An inline policy's id, not its PolicyName: 24 characters, 13 of them the suffix (`dotba-Para-1G3Z5VTARYKOM` for
  // a stack `dotba…` and a logical id `ParameterStorePolicy`).
  'AWS::IAM::Policy': { maxLength: 24, legacySuffix: true },
  // The API allows 64, but every generated function name seen is at most 63 long (three real names above).
  'AWS::Lambda::Function': { maxLength: 63 },
  // `CFN-<LogicalId>-<suffix>`, no stack name (`CFN-MyParameter-EZmrlQrQjjTv`, LocalStack snapshots).
  'AWS::SSM::Parameter': { prefix: 'CFN' },
  // `<LogicalId>-<12 characters>`, no stack name (resources/secretsManager.ts).
  'AWS::SecretsManager::Secret': { withoutStack: true },
  'AWS::Logs::LogGroup': { maxLength: 512 },
  'AWS::DynamoDB::Table': { maxLength: 255 },
  'AWS::Kinesis::Stream': { maxLength: 128 },
  'AWS::StepFunctions::StateMachine': { maxLength: 80 },
  'AWS::Events::Rule': { maxLength: 64 },
  'AWS::ECS::Cluster': { maxLength: 255 },
  'AWS::ECR::Repository': { maxLength: 256, lowercase: true },
  // DB identifiers: 63 characters, stored lowercase by RDS.
  'AWS::RDS::DBInstance': { maxLength: 63, lowercase: true },
  'AWS::RDS::DBCluster': { maxLength: 63, lowercase: true },
  // 32 characters; real names keep 6 of the stack and 5 of the logical id (`Restau-LB8A1-7ASNBoxQWbGn`,
  // `FisDem-LB8A1-iRIraD08e4Lg`). Target groups share the limit; their split is assumed the same.
  'AWS::ElasticLoadBalancingV2::LoadBalancer': { maxLength: 32, partLengths: [6, 5] },
  'AWS::ElasticLoadBalancingV2::TargetGroup': { maxLength: 32, partLengths: [6, 5] },
};

export interface GenerateNameArgs {
  readonly stackName: string;
  readonly logicalId: string;
  readonly type: string;
  readonly random: RandomSource;
  /** The resource's properties, for rules that depend on them (FIFO queues and topics). */
  readonly properties?: Readonly<Record<string, unknown>>;
}

/** The physical name CloudFormation generates for a resource created without its name property. */
export function generatePhysicalName(args: GenerateNameArgs): string {
  const rule = NAME_RULES[args.type] ?? {};
  const fifo = rule.fifoProperty && isTrue(args.properties?.[rule.fifoProperty]) ? '.fifo' : '';
  const suffix = rule.legacySuffix
    ? randomChars(args.random, LEGACY_SUFFIX_LENGTH, UPPER_ALNUM)
    : randomChars(args.random, SUFFIX_LENGTH, ALNUM);
  const first = rule.prefix ?? args.stackName;
  const [stack, logical] = rule.partLengths
    ? [first.slice(0, rule.partLengths[0]), args.logicalId.slice(0, rule.partLengths[1])]
    : fitParts(first, args.logicalId, rule.maxLength, suffix.length + 2 + fifo.length);
  const name = rule.withoutStack ? `${logical}-${suffix}${fifo}` : `${stack}-${logical}-${suffix}${fifo}`;
  return rule.lowercase ? name.toLowerCase() : name;
}

/** Shortens the stack and logical parts so that they fit in `maxLength` minus `reserved` characters. */
export function fitParts(
  stack: string,
  logical: string,
  maxLength: number | undefined,
  reserved: number,
): [string, string] {
  if (maxLength === undefined) return [stack, logical];
  const room = Math.max(0, maxLength - reserved);
  if (stack.length + logical.length <= room) return [stack, logical];
  const stackHalf = Math.ceil(room / 2);
  const logicalHalf = room - stackHalf;
  if (logical.length <= logicalHalf) return [stack.slice(0, room - logical.length), logical];
  if (stack.length <= stackHalf) return [stack, logical.slice(0, room - stack.length)];
  return [stack.slice(0, stackHalf), logical.slice(0, logicalHalf)];
}

function isTrue(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'true');
}
