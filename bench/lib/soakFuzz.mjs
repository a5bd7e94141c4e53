// The bad input of the soak group's load (bench/lib/soakLoad.mjs), as a fuzzer sends it: templates that do not
// parse, oversized values, names never seen twice (types, regions, tokens), bodies no protocol accepts.
import { ValidateTemplateCommand, GetTemplateSummaryCommand } from '@aws-sdk/client-cloudformation';

const BAD_BODIES = [
  'Resources: [\n',
  '{"Resources": {',
  `Resources:\n  A: &a {Type: AWS::SNS::Topic}\n  B: *a\n`,
  'x'.repeat(60_000),
];

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

/** A request signed (never verified) for `service` in `region`, as a fuzzer varying the credential scope sends. */
function signedFetch(endpoint, { region, service, target, body, contentType }) {
  const headers = {
    authorization: `AWS4-HMAC-SHA256 Credential=bench/20261201/${region}/${service}/aws4_request, SignedHeaders=host, Signature=00`,
    'content-type': contentType,
  };
  if (target) headers['x-amz-target'] = target;
  return fetch(endpoint, { method: 'POST', body, headers }).then((r) => r.text());
}

const form = (params) => new URLSearchParams({ Version: '2010-05-15', ...params }).toString();

/** Raw requests no SDK would send; each is refused. */
function rawCalls(endpoint) {
  const region = `xx-fuzz-${unique()}`;
  const query = (params, r = 'us-east-1') =>
    signedFetch(endpoint, {
      region: r,
      service: 'cloudformation',
      body: form(params),
      contentType: 'application/x-www-form-urlencoded',
    });
  return [
    query({ Action: 'CreateStack', StackName: 'n'.repeat(10_000) }),
    query({ Action: `Fuzz${unique()}` }),
    query({ Action: 'DescribeStacks', StackName: `missing-${unique()}` }, region),
    query({ Action: 'DescribeStackEvents', StackName: `missing-${unique()}` }),
    signedFetch(endpoint, {
      region,
      service: 'ssm',
      target: 'AmazonSSM.GetParameter',
      body: JSON.stringify({ Name: '/aws/service/global-infrastructure/regions/us-east-1/longName' }),
      contentType: 'application/x-amz-json-1.1',
    }),
    signedFetch(endpoint, {
      region: 'us-east-1',
      service: 'ssm',
      target: 'AmazonSSM.PutParameter',
      body: '{"Name": [',
      contentType: 'application/x-amz-json-1.1',
    }),
  ];
}

/** Template calls that fail: bodies that do not parse, and a custom type never seen before. */
function templateCalls(cf) {
  const custom = JSON.stringify({
    Resources: { C: { Type: `Custom::Fuzz${unique()}`, Properties: { ServiceToken: 'arn:aws:sns:us-east-1:1:t' } } },
  });
  return [
    ...BAD_BODIES.map((TemplateBody) => cf.send(new ValidateTemplateCommand({ TemplateBody }))),
    cf.send(new GetTemplateSummaryCommand({ TemplateBody: custom })),
  ];
}

/** Sends one round of bad input; resolves with the number of requests sent. */
export async function fuzz({ cf, endpoint }) {
  const calls = [...templateCalls(cf), ...rawCalls(endpoint)];
  await Promise.allSettled(calls);
  return calls.length;
}
