// BACKEND_TYPES: the resource types provisioned in the backend when --backend is set (docs/backend.md has the
// table of what each sends); every other type stays simulated.
import type { Provider } from '../provider.js';
import { backendProvider, type BackendOps } from './provider.js';
import { SQS_QUEUE, SQS_QUEUE_POLICY } from './sqs.js';
import { SNS_SUBSCRIPTION, SNS_TOPIC, SNS_TOPIC_POLICY } from './sns.js';
import { DYNAMODB_TABLE } from './dynamodb.js';
import { IAM_POLICY, IAM_ROLE } from './iam.js';
import { IAM_ACCESS_KEY, IAM_GROUP, IAM_INSTANCE_PROFILE, IAM_MANAGED_POLICY, IAM_USER } from './iamIdentities.js';
import { LOG_GROUP } from './logs.js';
import { STATE_MACHINE } from './stepfunctions.js';
import { KINESIS_STREAM } from './kinesis.js';
import { EVENT_BUS, EVENT_RULE } from './events.js';
import { KMS_ALIAS, KMS_KEY } from './kms.js';
import { SECRET } from './secrets.js';
import { ECR_REPOSITORY } from './ecr.js';
import { ALARM } from './cloudwatch.js';
import { USER_POOL, USER_POOL_CLIENT } from './cognito.js';
import { SECURITY_GROUP, SUBNET, VPC } from './ec2.js';
import { API_RESOURCE, REST_API } from './apigateway.js';
import { API_METHOD } from './apigatewayMethod.js';
import { API_DEPLOYMENT, API_STAGE } from './apigatewayStage.js';
import { secretProvider } from '../secretsManager.js';
import { ESM_TYPE } from './pollers.js';
import { eventSourceMappingProvider } from './eventSourceMapping.js';

export const BACKEND_OPS: Readonly<Record<string, BackendOps>> = {
  'AWS::SQS::Queue': SQS_QUEUE,
  'AWS::SQS::QueuePolicy': SQS_QUEUE_POLICY,
  'AWS::SNS::Topic': SNS_TOPIC,
  'AWS::SNS::Subscription': SNS_SUBSCRIPTION,
  'AWS::SNS::TopicPolicy': SNS_TOPIC_POLICY,
  'AWS::DynamoDB::Table': DYNAMODB_TABLE,
  'AWS::IAM::Role': IAM_ROLE,
  'AWS::IAM::Policy': IAM_POLICY,
  'AWS::IAM::ManagedPolicy': IAM_MANAGED_POLICY,
  'AWS::IAM::User': IAM_USER,
  'AWS::IAM::Group': IAM_GROUP,
  'AWS::IAM::AccessKey': IAM_ACCESS_KEY,
  'AWS::IAM::InstanceProfile': IAM_INSTANCE_PROFILE,
  'AWS::Logs::LogGroup': LOG_GROUP,
  'AWS::StepFunctions::StateMachine': STATE_MACHINE,
  'AWS::Kinesis::Stream': KINESIS_STREAM,
  'AWS::Events::EventBus': EVENT_BUS,
  'AWS::Events::Rule': EVENT_RULE,
  'AWS::KMS::Key': KMS_KEY,
  'AWS::KMS::Alias': KMS_ALIAS,
  'AWS::SecretsManager::Secret': SECRET,
  'AWS::ECR::Repository': ECR_REPOSITORY,
  'AWS::CloudWatch::Alarm': ALARM,
  'AWS::Cognito::UserPool': USER_POOL,
  'AWS::Cognito::UserPoolClient': USER_POOL_CLIENT,
  'AWS::EC2::VPC': VPC,
  'AWS::EC2::Subnet': SUBNET,
  'AWS::EC2::SecurityGroup': SECURITY_GROUP,
  'AWS::ApiGateway::RestApi': REST_API,
  'AWS::ApiGateway::Resource': API_RESOURCE,
  'AWS::ApiGateway::Method': API_METHOD,
  'AWS::ApiGateway::Deployment': API_DEPLOYMENT,
  'AWS::ApiGateway::Stage': API_STAGE,
};

/** Types whose simulated provider is their own, not the generic one (a secret keeps its generated value). */
const SIMULATED: Readonly<Record<string, Provider>> = { 'AWS::SecretsManager::Secret': secretProvider };

export const BACKEND_PROVIDERS: Readonly<Record<string, Provider>> = {
  ...Object.fromEntries(
    Object.entries(BACKEND_OPS).map(([type, ops]) => [type, backendProvider(ops, SIMULATED[type])]),
  ),
  [ESM_TYPE]: eventSourceMappingProvider,
};
