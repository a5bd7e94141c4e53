// Benchmark templates: N resources cycling SSM parameters, SQS queues, IAM roles and S3 buckets, wired in 10-deep
// chains of Ref / Fn::GetAtt (in Fn::Sub) / DependsOn, small enough that 500 resources fit AWS's 51,200-byte
// TemplateBody limit. JSON (what the CDK and SAM synthesize) by default; YAML with short-form tags on request.

const POLICY =
  '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"lambda.amazonaws.com"},"Action":"sts:AssumeRole"}]}';
const PREFIX = ['P', 'Q', 'R', 'B'];
/** Resources per dependency chain: resource i depends on i-1 unless i is a multiple of CHAIN. */
export const CHAIN = 10;

export const logicalId = (i) => `${PREFIX[i % 4]}${i}`;

/** What resource i exposes to the next one in its chain: a parameter's name (Ref), else its Arn (GetAtt). */
const exposed = (i) => (i % 4 === 0 ? `\${${logicalId(i)}}` : `\${${logicalId(i)}.Arn}`);

/**
 * Resource i at a version (1, or 2 once changed). Parameters and roles (the even resources) take a Fn::Sub of the
 * previous resource's Ref or Arn; queues and buckets (the odd ones) a DependsOn on it, so a 500-resource JSON body
 * stays under 51,200 bytes. Every change is an in-place update (parameter Value, role Description).
 */
function resource(i, version) {
  const from = i % CHAIN === 0 ? 'x' : exposed(i - 1);
  const sub = { 'Fn::Sub': `${from}-${version}` };
  const after = i % CHAIN === 0 ? {} : { DependsOn: logicalId(i - 1) };
  switch (i % 4) {
    case 0:
      return { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: sub } };
    case 1:
      return { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 30 + version }, ...after };
    case 2:
      return { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: { Ref: 'Doc' }, Description: sub } };
    default:
      return { Type: 'AWS::S3::Bucket', ...after };
  }
}

/** Independent resources: no Ref, no GetAtt, no DependsOn (one level, as wide as the template). */
function flatResource(i, version) {
  return { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: `v${version}` } };
}

/** The template as a plain object; `changed(i)` says which resources take version 2; `flat` drops every dependency. */
export function templateDoc(n, changed = () => false, { flat = false } = {}) {
  const Resources = {};
  for (let i = 0; i < n; i++) Resources[logicalId(i)] = (flat ? flatResource : resource)(i, changed(i) ? 2 : 1);
  return {
    Parameters: { Doc: { Type: 'String', Default: POLICY } },
    Resources,
    Outputs: { Last: { Value: { Ref: logicalId(n - 1) } } },
  };
}

/** Flow-style YAML with short-form tags, one resource per line. */
function toYaml(doc) {
  const flow = (v) => {
    if (Array.isArray(v)) return `[${v.map(flow).join(', ')}]`;
    if (v && typeof v === 'object') {
      const [key] = Object.keys(v);
      if (key === 'Fn::Sub') return `!Sub "${v[key]}"`;
      if (key === 'Ref') return `!Ref ${v[key]}`;
      return `{${Object.entries(v)
        .map(([k, x]) => `${k}: ${flow(x)}`)
        .join(', ')}}`;
    }
    return typeof v === 'string' && /[{}[\]:,"'#]/.test(v) ? `'${v}'` : String(v);
  };
  const section = (name, map) => [`${name}:`, ...Object.entries(map).map(([k, v]) => ` ${k}: ${flow(v)}`)];
  return `${[...section('Parameters', doc.Parameters), ...section('Resources', doc.Resources), ...section('Outputs', doc.Outputs)].join('\n')}\n`;
}

/**
 * A template body of n resources. An UpdateStack passes `halfChanged`: every even resource (the parameters and
 * roles) changes in place, so an update is n/2 UPDATE_COMPLETEs.
 */
export function template(n, changed = () => false, format = 'json', options = {}) {
  const doc = templateDoc(n, changed, options);
  return format === 'yaml' ? toYaml(doc) : JSON.stringify(doc);
}

export const halfChanged = (i) => i % 2 === 0;
