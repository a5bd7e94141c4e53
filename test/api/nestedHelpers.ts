// Shared pieces of the nested-stack tests: templates put where a TemplateURL can read them, and tree lookups.
import { DescribeStacksCommand, type CloudFormationClient, type Stack } from '@aws-sdk/client-cloudformation';
import { allEvents } from '../helpers/events.js';
import { STAND_IN_OBJECTS } from '../../state-machine/childTemplate.js';

let counter = 0;

/** Stores a child template (at `url`, or a new one) and returns the TemplateURL that names it. */
export async function putTemplate(body: string, url = `https://s3.us-east-1.amazonaws.com/nested-templates/t${++counter}.yaml`): Promise<string> {
  STAND_IN_OBJECTS.set(url, body);
  return url;
}

export const param = (name: string, extra = '') => `  ${name}:
    Type: AWS::SSM::Parameter
${extra}    Properties:
      Type: String
      Value: ${name}
`;

export const failing = (fail: string) => `    Metadata:\n      cfn-local:\n        Fail: [${fail}]\n        Message: "Rate exceeded"\n`;

export const nested = (logicalId: string, url: string, extra = '') => `  ${logicalId}:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: ${url}
${extra}`;

/** The child stack behind a parent's AWS::CloudFormation::Stack resource (by its events: a rolled-back parent keeps no resources). */
export async function childOf(client: CloudFormationClient, parent: string, logicalId: string): Promise<Stack> {
  const events = await allEvents(client, parent);
  const id = events.find((e) => e.LogicalResourceId === logicalId && e.PhysicalResourceId)!.PhysicalResourceId;
  const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: id }));
  return Stacks![0];
}
