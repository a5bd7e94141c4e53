// The AWS API models cfn-local serves, one line each: the SDK package whose smithy schema is the model, its wire
// protocol, and the protocol facts the schema does not carry. scripts/gen-models.mjs writes generated/models/<name>.json
// (read by server/protocol/model.ts) and scripts/gen-types.mjs writes generated/<name>.ts (<types>Actions) from each.
//
// `numeric: 'integer'`: the schema encodes every integer, float and double member as one NUMERIC code; CloudFormation's
// are all integers but the few listed in `numericMembers`. `declaredOrder`: members in the order of the SDK's declared
// interfaces (the schema hoists required members first), which is the order CloudFormation's XML answers keep.
// `jsonEcho: 'json'`: a JSON request's wrongly typed value is echoed in the validation message as its JSON text
// (CloudFormation's awsJson door: `Value '"x"' at …`); otherwise a string is echoed as it is (SSM, Lambda).
export const MODELS = {
  cloudformation: {
    sdk: '@aws-sdk/client-cloudformation',
    types: 'CloudFormation',
    protocol: 'awsQuery',
    targetPrefix: 'CloudFormation',
    xmlNamespace: 'http://cloudformation.amazonaws.com/doc/2010-05-15/',
    numeric: 'integer',
    numericMembers: { PercentageCompleted: 'double', MajorVersion: 'long' },
    declaredOrder: true,
    jsonEcho: 'json',
  },
  ssm: { sdk: '@aws-sdk/client-ssm', types: 'Ssm', protocol: 'awsJson1_1', targetPrefix: 'AmazonSSM' },
  cloudcontrol: {
    sdk: '@aws-sdk/client-cloudcontrol',
    types: 'CloudControl',
    protocol: 'awsJson1_0',
    targetPrefix: 'CloudApiService',
  },
  sts: {
    sdk: '@aws-sdk/client-sts',
    types: 'Sts',
    protocol: 'awsQuery',
    xmlNamespace: 'https://sts.amazonaws.com/doc/2011-06-15/',
  },
  lambda: { sdk: '@aws-sdk/client-lambda', types: 'Lambda', protocol: 'restJson1' },
  sfn: { sdk: '@aws-sdk/client-sfn', types: 'Sfn', protocol: 'awsJson1_0', targetPrefix: 'AWSStepFunctions' },
  s3: { sdk: '@aws-sdk/client-s3', types: 'S3', protocol: 'restXml' },
};
