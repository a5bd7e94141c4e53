// What the resource schemas tell drift detection, for the types whose schemas say something that matters here:
// write-only properties (never read back, so never compared), defaults (an unset property reads as its default)
// and lists whose order means nothing (`insertionOrder: false`). Tags are unordered for every type.

/** Top-level properties the registry schemas list as writeOnlyProperties. */
export const WRITE_ONLY: Readonly<Record<string, readonly string[]>> = {
  'AWS::Lambda::Function': ['Code', 'SnapStart'],
  'AWS::Lambda::LayerVersion': ['Content'],
  'AWS::IAM::User': ['LoginProfile'],
  'AWS::RDS::DBInstance': ['MasterUserPassword', 'TdeCredentialPassword', 'DBSnapshotIdentifier'],
  'AWS::RDS::DBCluster': ['MasterUserPassword', 'SnapshotIdentifier'],
  'AWS::SecretsManager::Secret': ['SecretString', 'GenerateSecretString'],
  'AWS::S3::Bucket': ['AccessControl'],
  'AWS::ApiGateway::RestApi': ['Body', 'BodyS3Location', 'CloneFrom', 'FailOnWarnings', 'Mode', 'Parameters'],
  'AWS::EC2::Instance': ['AdditionalInfo', 'BlockDeviceMappings', 'LaunchTemplate', 'NetworkInterfaces'],
  'AWS::ElastiCache::ReplicationGroup': ['AuthToken'],
  'AWS::DocDB::DBCluster': ['MasterUserPassword'],
  'AWS::Redshift::Cluster': ['MasterUserPassword'],
};

/**
 * The schemas' defaults: a template that states one matches a service that reports nothing. The resource
 * specification records defaults for few types (ResourceSpec.defaults, used first); these are the ones it lacks.
 */
export const DEFAULTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'AWS::SSM::Parameter': { Tier: 'Standard', DataType: 'text' },
  'AWS::Lambda::Function': {
    MemorySize: 128,
    Timeout: 3,
    PackageType: 'Zip',
    Architectures: ['x86_64'],
    EphemeralStorage: { Size: 512 },
    TracingConfig: { Mode: 'PassThrough' },
  },
  'AWS::SQS::Queue': {
    DelaySeconds: 0,
    MaximumMessageSize: 262144,
    MessageRetentionPeriod: 345600,
    ReceiveMessageWaitTimeSeconds: 0,
    VisibilityTimeout: 30,
    FifoQueue: false,
  },
  'AWS::DynamoDB::Table': { BillingMode: 'PROVISIONED' },
  'AWS::SNS::Topic': { FifoTopic: false },
};

/** Paths (without list indexes) of lists whose members are matched by value, not by position. */
export const UNORDERED: Readonly<Record<string, readonly string[]>> = {
  'AWS::IAM::Role': ['/ManagedPolicyArns', '/Policies'],
  'AWS::IAM::User': ['/ManagedPolicyArns', '/Policies', '/Groups'],
  'AWS::IAM::Group': ['/ManagedPolicyArns', '/Policies'],
  'AWS::IAM::ManagedPolicy': ['/Roles', '/Users', '/Groups'],
  'AWS::IAM::Policy': ['/Roles', '/Users', '/Groups'],
  'AWS::EC2::SecurityGroup': ['/SecurityGroupIngress', '/SecurityGroupEgress'],
  'AWS::Lambda::Function': ['/VpcConfig/SecurityGroupIds', '/VpcConfig/SubnetIds'],
  'AWS::SNS::Topic': ['/Subscription'],
  'AWS::DynamoDB::Table': ['/AttributeDefinitions', '/GlobalSecondaryIndexes', '/LocalSecondaryIndexes'],
  'AWS::S3::Bucket': ['/LifecycleConfiguration/Rules', '/CorsConfiguration/CorsRules'],
};
