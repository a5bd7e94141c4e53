// The entry of dist/backend-sdk.cjs (scripts/bundle.mjs): the AWS SDK clients the backend providers use, under
// the names resources/backend/sdk.ts reads. Loaded only with --backend, and each
// client only when a family first uses it (esbuild keeps a bundled module's body until its first require).
module.exports = {
  get sqs() {
    return require('@aws-sdk/client-sqs');
  },
  get sns() {
    return require('@aws-sdk/client-sns');
  },
  get dynamodb() {
    return require('@aws-sdk/client-dynamodb');
  },
  get iam() {
    return require('@aws-sdk/client-iam');
  },
  get logs() {
    return require('@aws-sdk/client-cloudwatch-logs');
  },
  get sfn() {
    return require('@aws-sdk/client-sfn');
  },
  get events() {
    return require('@aws-sdk/client-eventbridge');
  },
  get kms() {
    return require('@aws-sdk/client-kms');
  },
  get secrets() {
    return require('@aws-sdk/client-secrets-manager');
  },
  get apigateway() {
    return require('@aws-sdk/client-api-gateway');
  },
  get ec2() {
    return require('@aws-sdk/client-ec2');
  },
  get ecr() {
    return require('@aws-sdk/client-ecr');
  },
  get cognito() {
    return require('@aws-sdk/client-cognito-identity-provider');
  },
  get cloudwatch() {
    return require('@aws-sdk/client-cloudwatch');
  },
  get kinesis() {
    return require('@aws-sdk/client-kinesis');
  },
  get dynamodbStreams() {
    return require('@aws-sdk/client-dynamodb-streams');
  },
  get http() {
    return require('@smithy/node-http-handler');
  },
};
