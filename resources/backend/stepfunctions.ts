// Step Functions in the backend: AWS::StepFunctions::StateMachine (its definition, role, type, logging, tracing).
import { family } from './family.js';
import type { BackendOps } from './provider.js';
import { tagList } from './values.js';

const { sdk, client } = family('sfn', (m) => m.SFNClient);

/** Definition (an object) or DefinitionString, with DefinitionSubstitutions' `${key}` filled in as CloudFormation does. */
export function definitionOf(properties: Record<string, unknown>): string {
  const raw = properties.DefinitionString ?? properties.Definition ?? {};
  let text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  const substitutions = (properties.DefinitionSubstitutions ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(substitutions)) text = text.split(`\${${key}}`).join(String(value));
  return text;
}

const tags = (value: unknown) => tagList(value)?.map((t) => ({ key: t.Key, value: t.Value }));

export const STATE_MACHINE: BackendOps = {
  service: 'Sfn',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const made = await (
      await client(call)
    ).send(
      new m.CreateStateMachineCommand({
        name: call.name,
        definition: definitionOf(p),
        roleArn: String(p.RoleArn),
        type: p.StateMachineType as never,
        loggingConfiguration: p.LoggingConfiguration as never,
        tracingConfiguration: p.TracingConfiguration as never,
        tags: tags(p.Tags),
      }),
    );
    const arn = made.stateMachineArn!;
    return {
      physicalId: arn,
      attributes: {
        Arn: arn,
        Name: call.name,
        ...(made.stateMachineVersionArn ? { StateMachineRevisionId: made.stateMachineVersionArn } : {}),
      },
    };
  },
  async update(call) {
    const m = await sdk();
    const p = call.req.properties;
    await (
      await client(call)
    ).send(
      new m.UpdateStateMachineCommand({
        stateMachineArn: call.physicalId,
        definition: definitionOf(p),
        roleArn: String(p.RoleArn),
        loggingConfiguration: p.LoggingConfiguration as never,
        tracingConfiguration: p.TracingConfiguration as never,
      }),
    );
  },
  async delete(call) {
    const m = await sdk();
    const sfn = await client(call);
    // DeleteStateMachine succeeds for an unknown ARN; CloudFormation's handler looks first
    await sfn.send(new m.DescribeStateMachineCommand({ stateMachineArn: call.physicalId }));
    await sfn.send(new m.DeleteStateMachineCommand({ stateMachineArn: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const got = await (
      await client(call)
    ).send(new m.DescribeStateMachineCommand({ stateMachineArn: call.physicalId }));
    return {
      StateMachineName: got.name,
      DefinitionString: got.definition,
      RoleArn: got.roleArn,
      StateMachineType: got.type,
    };
  },
};
