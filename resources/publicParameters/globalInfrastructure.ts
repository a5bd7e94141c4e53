// /aws/service/global-infrastructure/…: regions, the services offered in each and availability zones, as AWS
// publishes them (the same in every region). Services are the common ones templates read, not AWS's full list.
// https://docs.aws.amazon.com/systems-manager/latest/userguide/parameter-store-public-parameters-global-infrastructure.html
import type { PublicEntry } from './amis.js';
import { REGION_TABLE, zoneIdPrefix } from './regionTable.js';
import { availabilityZones, partitionOf, urlSuffixOf } from '../regions.js';

const SERVICES: Record<string, string> = {
  acm: 'AWS Certificate Manager',
  apigateway: 'Amazon API Gateway',
  athena: 'Amazon Athena',
  autoscaling: 'Amazon EC2 Auto Scaling',
  backup: 'AWS Backup',
  cloudformation: 'AWS CloudFormation',
  cloudfront: 'Amazon CloudFront',
  cloudtrail: 'AWS CloudTrail',
  cloudwatch: 'Amazon CloudWatch',
  codebuild: 'AWS CodeBuild',
  codepipeline: 'AWS CodePipeline',
  cognito: 'Amazon Cognito',
  dynamodb: 'Amazon DynamoDB',
  ec2: 'Amazon Elastic Compute Cloud (EC2)',
  ecr: 'Amazon Elastic Container Registry (ECR)',
  ecs: 'Amazon Elastic Container Service (ECS)',
  efs: 'Amazon Elastic File System (EFS)',
  eks: 'Amazon Elastic Kubernetes Service (EKS)',
  elasticache: 'Amazon ElastiCache',
  elb: 'Elastic Load Balancing',
  es: 'Amazon OpenSearch Service',
  events: 'Amazon EventBridge',
  firehose: 'Amazon Data Firehose',
  glue: 'AWS Glue',
  iam: 'AWS Identity and Access Management (IAM)',
  kinesis: 'Amazon Kinesis Data Streams',
  kms: 'AWS Key Management Service',
  lambda: 'AWS Lambda',
  logs: 'Amazon CloudWatch Logs',
  neptune: 'Amazon Neptune',
  rds: 'Amazon Relational Database Service (RDS)',
  redshift: 'Amazon Redshift',
  route53: 'Amazon Route 53',
  s3: 'Amazon Simple Storage Service (S3)',
  secretsmanager: 'AWS Secrets Manager',
  sns: 'Amazon Simple Notification Service (SNS)',
  sqs: 'Amazon Simple Queue Service (SQS)',
  ssm: 'AWS Systems Manager',
  stepfunctions: 'AWS Step Functions',
  sts: 'AWS Security Token Service',
  wafv2: 'AWS WAF',
};

const text = (name: string, value: string): PublicEntry => ({ name, value, dataType: 'text' });
const ROOT = '/aws/service/global-infrastructure';

/** `use1-az1`… for each zone of a region, in the order Fn::GetAZs lists the zones. */
export function zoneIds(region: string): string[] {
  return availabilityZones(region).map((_, i) => `${zoneIdPrefix(region)}-az${i + 1}`);
}

function regionEntries(region: string): PublicEntry[] {
  const facts = REGION_TABLE[region];
  const base = `${ROOT}/regions/${region}`;
  return [
    text(base, region),
    text(`${base}/longName`, facts.longName),
    text(`${base}/domain`, urlSuffixOf(region)),
    text(`${base}/partition`, partitionOf(region)),
    text(`${base}/geolocationCountry`, facts.geolocationCountry),
    text(`${base}/geolocationRegion`, facts.geolocationRegion),
    ...Object.keys(SERVICES).flatMap((service) => [
      text(`${base}/services/${service}`, service),
      text(`${base}/services/${service}/endpoint`, `${service}.${region}.${urlSuffixOf(region)}`),
    ]),
    ...zoneIds(region).map((id) => text(`${base}/availability-zones/${id}`, id)),
  ];
}

function serviceEntries(service: string): PublicEntry[] {
  const base = `${ROOT}/services/${service}`;
  return [
    text(base, service),
    text(`${base}/longName`, SERVICES[service]),
    ...Object.keys(REGION_TABLE).map((region) => text(`${base}/regions/${region}`, region)),
  ];
}

function zoneEntries(region: string): PublicEntry[] {
  return zoneIds(region).flatMap((id, i) => {
    const base = `${ROOT}/availability-zones/${id}`;
    return [
      text(base, id),
      text(`${base}/parent-region`, region),
      text(`${base}/zone-type`, 'availability-zone'),
      text(`${base}/zone-name`, availabilityZones(region)[i]),
    ];
  });
}

let cached: PublicEntry[] | undefined;

/** Every global-infrastructure parameter (built once: they are the same in every region). */
export function globalInfrastructureParameters(): PublicEntry[] {
  cached ??= [
    ...Object.keys(REGION_TABLE).flatMap(regionEntries),
    ...Object.keys(SERVICES).flatMap(serviceEntries),
    ...Object.keys(REGION_TABLE).flatMap(zoneEntries),
  ];
  return cached;
}
