// The entry of dist/backend-sdk.cjs (scripts/bundle.mjs): the AWS SDK clients the backend providers use, under
// the names resources/backend/sdk.ts reads. Loaded only with --backend.
module.exports = {
  sqs: require('@aws-sdk/client-sqs'),
  sns: require('@aws-sdk/client-sns'),
  dynamodb: require('@aws-sdk/client-dynamodb'),
  iam: require('@aws-sdk/client-iam'),
  logs: require('@aws-sdk/client-cloudwatch-logs'),
  sfn: require('@aws-sdk/client-sfn'),
  kinesis: require('@aws-sdk/client-kinesis'),
  dynamodbStreams: require('@aws-sdk/client-dynamodb-streams'),
  http: require('@smithy/node-http-handler'),
};
