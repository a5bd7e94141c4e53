// EventBridge in the backend: AWS::Events::EventBus and AWS::Events::Rule (its pattern or schedule and targets).
import { family } from './family.js';
import type { BackendCall, BackendOps } from './provider.js';
import { jsonText, tagList } from './values.js';

const { sdk, client } = family('events', (m) => m.EventBridgeClient);

export const EVENT_BUS: BackendOps = {
  service: 'EventBridge',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const made = await (
      await client(call)
    ).send(
      new m.CreateEventBusCommand({
        Name: call.name,
        EventSourceName: p.EventSourceName as string | undefined,
        Description: p.Description as string | undefined,
        KmsKeyIdentifier: p.KmsKeyIdentifier as string | undefined,
        Tags: tagList(p.Tags),
      }),
    );
    return { physicalId: call.name, attributes: { Arn: made.EventBusArn, Name: call.name } };
  },
  async delete(call) {
    const m = await sdk();
    const buses = await client(call);
    // DeleteEventBus succeeds for a bus that does not exist; CloudFormation's handler looks first
    await buses.send(new m.DescribeEventBusCommand({ Name: call.physicalId }));
    await buses.send(new m.DeleteEventBusCommand({ Name: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const got = await (await client(call)).send(new m.DescribeEventBusCommand({ Name: call.physicalId }));
    return { Name: got.Name, Description: got.Description, Policy: got.Policy ? JSON.parse(got.Policy) : undefined };
  },
};

interface Target {
  Id: string;
  Arn: string;
  RoleArn?: string;
  Input?: string;
  InputPath?: string;
}

const targetsOf = (value: unknown): Target[] => (Array.isArray(value) ? (value as Target[]) : []);

/** A rule on a bus other than the default one is `bus|name`, as CloudFormation's Ref answers. */
function ruleId(bus: unknown, name: string): string {
  return bus === undefined || bus === 'default' ? name : `${String(bus)}|${name}`;
}

function ruleOf(physicalId: string): { Name: string; EventBusName?: string } {
  const at = physicalId.lastIndexOf('|');
  return at < 0 ? { Name: physicalId } : { Name: physicalId.slice(at + 1), EventBusName: physicalId.slice(0, at) };
}

async function putRule(call: BackendCall, name: string) {
  const m = await sdk();
  const p = call.req.properties;
  const rules = await client(call);
  const bus = p.EventBusName as string | undefined;
  const made = await rules.send(
    new m.PutRuleCommand({
      Name: name,
      EventBusName: bus,
      EventPattern: jsonText(p.EventPattern),
      ScheduleExpression: p.ScheduleExpression as string | undefined,
      State: (p.State ?? 'ENABLED') as never,
      Description: p.Description as string | undefined,
      RoleArn: p.RoleArn as string | undefined,
    }),
  );
  const before = targetsOf(call.req.previousProperties?.Targets).map((t) => t.Id);
  const now = targetsOf(p.Targets);
  const gone = before.filter((id) => !now.some((t) => t.Id === id));
  if (gone.length > 0) await rules.send(new m.RemoveTargetsCommand({ Rule: name, EventBusName: bus, Ids: gone }));
  if (now.length > 0) {
    const targets = now.map((t) => ({
      Id: t.Id,
      Arn: t.Arn,
      RoleArn: t.RoleArn,
      Input: t.Input,
      InputPath: t.InputPath,
    }));
    await rules.send(new m.PutTargetsCommand({ Rule: name, EventBusName: bus, Targets: targets }));
  }
  return made.RuleArn;
}

export const EVENT_RULE: BackendOps = {
  service: 'EventBridge',
  async create(call) {
    const arn = await putRule(call, call.name);
    return { physicalId: ruleId(call.req.properties.EventBusName, call.name), attributes: { Arn: arn } };
  },
  async update(call) {
    await putRule(call, ruleOf(call.physicalId).Name);
  },
  async delete(call) {
    const m = await sdk();
    const rules = await client(call);
    const rule = ruleOf(call.physicalId);
    await rules.send(new m.DescribeRuleCommand(rule));
    const { Targets } = await rules.send(
      new m.ListTargetsByRuleCommand({ Rule: rule.Name, EventBusName: rule.EventBusName }),
    );
    const ids = (Targets ?? []).map((t) => t.Id!);
    if (ids.length > 0)
      await rules.send(new m.RemoveTargetsCommand({ Rule: rule.Name, EventBusName: rule.EventBusName, Ids: ids }));
    await rules.send(new m.DeleteRuleCommand(rule));
  },
  async read(call) {
    const m = await sdk();
    const rules = await client(call);
    const rule = ruleOf(call.physicalId);
    const got = await rules.send(new m.DescribeRuleCommand(rule));
    const { Targets } = await rules.send(
      new m.ListTargetsByRuleCommand({ Rule: rule.Name, EventBusName: rule.EventBusName }),
    );
    return {
      Name: got.Name,
      EventBusName: got.EventBusName,
      EventPattern: got.EventPattern ? JSON.parse(got.EventPattern) : undefined,
      ScheduleExpression: got.ScheduleExpression,
      State: got.State,
      Targets: (Targets ?? []).map((t) => ({ Id: t.Id, Arn: t.Arn })),
    };
  },
};
