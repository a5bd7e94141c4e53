// Benchmark templates: N resources cycling SSM parameters, SQS queues, IAM roles and S3 buckets, wired in 10-deep
// chains of Ref / Fn::GetAtt / Fn::Sub, small enough that 500 resources fit AWS's 51,200-byte TemplateBody limit.

const POLICY = '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"lambda.amazonaws.com"},"Action":"sts:AssumeRole"}]}';
const TYPES = ['AWS::SSM::Parameter', 'AWS::SQS::Queue', 'AWS::IAM::Role', 'AWS::S3::Bucket'];
const PREFIX = ['P', 'Q', 'R', 'B'];
/** Resources per dependency chain: resource i depends on i-1 unless i is a multiple of CHAIN. */
export const CHAIN = 10;

export const logicalId = (i) => `${PREFIX[i % 4]}${i}`;

/** What resource i exposes to the next one in its chain, as a Fn::Sub variable. */
const exposed = (i) => (i % 4 === 0 ? `\${${logicalId(i)}}` : `\${${logicalId(i)}.Arn}`);

/** Version of resource i: `changed` resources (every even one when updating) take version 2. */
function resourceLine(i, version) {
  const id = logicalId(i);
  const from = i % CHAIN === 0 ? 'x' : exposed(i - 1);
  const sub = `!Sub "${from}-${version}"`;
  switch (i % 4) {
    case 0: return ` ${id}: {Type: ${TYPES[0]}, Properties: {Type: String, Value: ${sub}}}`;
    case 1: return ` ${id}: {Type: ${TYPES[1]}, Properties: {VisibilityTimeout: ${30 + version}, Tags: [{Key: k, Value: ${sub}}]}}`;
    case 2: return ` ${id}: {Type: ${TYPES[2]}, Properties: {AssumeRolePolicyDocument: !Ref Doc, Description: ${sub}}}`;
    default: return ` ${id}: {Type: ${TYPES[3]}, Properties: {Tags: [{Key: k, Value: ${sub}}]}}`;
  }
}

/**
 * A YAML template of n resources. `changed(i)` says which resources take version 2 (an UpdateStack changes half:
 * `(i) => i % 2 === 0`); every change is in place (SSM Value, queue VisibilityTimeout and Tags, role Description,
 * bucket Tags), so an update is n/2 UPDATE_IN_PROGRESS → UPDATE_COMPLETE pairs.
 */
export function template(n, changed = () => false) {
  const lines = [
    'Parameters:',
    ` Doc: {Type: String, Default: '${POLICY}'}`,
    'Resources:',
  ];
  for (let i = 0; i < n; i++) lines.push(resourceLine(i, changed(i) ? 2 : 1));
  lines.push('Outputs:', ` Last: {Value: !Ref ${logicalId(n - 1)}}`);
  return `${lines.join('\n')}\n`;
}

export const halfChanged = (i) => i % 2 === 0;
