// The crash campaign's templates (scripts/crash.mjs): chains of slow SSM parameters whose values come from the
// stack's `Value` parameter, so the world can be checked against the stack's status; a resource that fails its
// create on purpose (a rollback); a three-level nested tree; a Lambda function that reports its process id.

/** `count` SSM parameters P0…, each DependsOn the one before and taking `delayMs` to act, so kills land inside. */
function chain(count, delayMs) {
  const lines = [];
  for (let i = 0; i < count; i++) {
    lines.push(`  P${i}:`, '    Type: AWS::SSM::Parameter');
    if (i > 0) lines.push(`    DependsOn: P${i - 1}`);
    lines.push(
      `    Metadata: { cfn-local: { DelayMs: ${delayMs} } }`,
      '    Properties:',
      '      Type: String',
      `      Value: !Sub '\${Value}-${i}'`,
    );
  }
  return lines;
}

/** A resource that always fails its create: a create with it rolls back, an update that adds it rolls back. */
const boom = (after) => [
  '  Boom:',
  '    Type: AWS::SSM::Parameter',
  `    DependsOn: ${after}`,
  '    Metadata: { cfn-local: { Fail: [Create], Message: the crash campaign fails this resource } }',
  '    Properties: { Type: String, Value: boom }',
];

const nested = (url, after) => [
  '  Child:',
  '    Type: AWS::CloudFormation::Stack',
  `    DependsOn: ${after}`,
  '    Properties:',
  `      TemplateURL: ${url}`,
  '      Parameters: { Value: !Ref Value }',
];

const HEAD = ['Parameters:', '  Value: { Type: String }', 'Resources:'];
const text = (lines) => `${lines.join('\n')}\n`;

/** How many SSM parameters each kind of stack holds, and the templates' S3 home. */
export const PARAMETERS = { flat: 5, tree: 2, fn: 2 };
export const TEMPLATE_BUCKET = 'crash-templates';
const url = (key) => `https://s3.us-east-1.amazonaws.com/${TEMPLATE_BUCKET}/${key}`;

/** The nested tree's lower levels, put in S3 once: the middle level holds the leaf. */
export const CHILD_TEMPLATES = {
  'leaf.yaml': text([...HEAD, ...chain(3, 4)]),
  'middle.yaml': text([...HEAD, ...chain(2, 4), ...nested(url('leaf.yaml'), 'P0')]),
};

const FUNCTION = [
  '  Fn:',
  '    Type: AWS::Lambda::Function',
  '    DependsOn: P0',
  '    Properties:',
  '      Runtime: nodejs20.x',
  '      Handler: index.handler',
  '      Role: arn:aws:iam::000000000000:role/crash',
  '      Timeout: 5',
  '      Environment: { Variables: { VALUE: !Ref Value } }',
  '      Code:',
  '        ZipFile: |',
  '          exports.handler = async (event) => {',
  '            await new Promise((r) => setTimeout(r, event.ms));',
  '            return { pid: process.pid, n: event.n, value: process.env.VALUE };',
  '          };',
];

/** The template of a stack of `kind` ('flat', 'tree' or 'fn'), with a failing resource when `fails`. */
export function templateOf(kind, fails) {
  const last = `P${PARAMETERS[kind] - 1}`;
  const body = chain(PARAMETERS[kind], kind === 'flat' ? 8 : 4);
  if (kind === 'tree') body.push(...nested(url('middle.yaml'), 'P0'));
  if (kind === 'fn') body.push(...FUNCTION);
  if (fails) body.push(...boom(last));
  return text([...HEAD, ...body]);
}
