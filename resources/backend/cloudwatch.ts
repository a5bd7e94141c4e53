// CloudWatch in the backend: AWS::CloudWatch::Alarm (a metric alarm; PutMetricAlarm makes and changes it).
import { family } from './family.js';
import type { BackendCall, BackendOps } from './provider.js';
import { num, strings, tagList } from './values.js';

const { sdk, client } = family('cloudwatch', (m) => m.CloudWatchClient);

const isFalse = (v: unknown) => v === false || v === 'false';

async function putAlarm(call: BackendCall, name: string, withTags: boolean): Promise<void> {
  const m = await sdk();
  const p = call.req.properties;
  await (
    await client(call)
  ).send(
    new m.PutMetricAlarmCommand({
      AlarmName: name,
      AlarmDescription: p.AlarmDescription as string | undefined,
      ActionsEnabled: !isFalse(p.ActionsEnabled),
      AlarmActions: strings(p.AlarmActions),
      OKActions: strings(p.OKActions),
      InsufficientDataActions: strings(p.InsufficientDataActions),
      MetricName: p.MetricName as string | undefined,
      Namespace: p.Namespace as string | undefined,
      Statistic: p.Statistic as never,
      ExtendedStatistic: p.ExtendedStatistic as string | undefined,
      Dimensions: p.Dimensions as never,
      Period: num(p.Period),
      Unit: p.Unit as never,
      EvaluationPeriods: num(p.EvaluationPeriods),
      DatapointsToAlarm: num(p.DatapointsToAlarm),
      Threshold: num(p.Threshold),
      ThresholdMetricId: p.ThresholdMetricId as string | undefined,
      ComparisonOperator: p.ComparisonOperator as never,
      TreatMissingData: p.TreatMissingData as string | undefined,
      EvaluateLowSampleCountPercentile: p.EvaluateLowSampleCountPercentile as string | undefined,
      Metrics: p.Metrics as never,
      Tags: withTags ? tagList(p.Tags) : undefined,
    }),
  );
}

async function describe(call: BackendCall, name: string) {
  const m = await sdk();
  const got = await (await client(call)).send(new m.DescribeAlarmsCommand({ AlarmNames: [name] }));
  return got.MetricAlarms?.[0];
}

/** DeleteAlarms succeeds for a name it does not know: an alarm gone out of band is reported as not found. */
const notFound = (name: string) =>
  Object.assign(new Error(`Alarm ${name} not found`), { name: 'ResourceNotFound', Code: 'ResourceNotFound' });

export const ALARM: BackendOps = {
  service: 'CloudWatch',
  async create(call) {
    await putAlarm(call, call.name, true);
    return { physicalId: call.name, attributes: { Arn: (await describe(call, call.name))?.AlarmArn } };
  },
  async update(call) {
    await putAlarm(call, call.physicalId, false);
  },
  async delete(call) {
    const m = await sdk();
    if (!(await describe(call, call.physicalId))) throw notFound(call.physicalId);
    await (await client(call)).send(new m.DeleteAlarmsCommand({ AlarmNames: [call.physicalId] }));
  },
  async read(call) {
    const a = await describe(call, call.physicalId);
    if (!a) return undefined;
    return {
      AlarmName: a.AlarmName,
      AlarmDescription: a.AlarmDescription,
      MetricName: a.MetricName,
      Namespace: a.Namespace,
      Statistic: a.Statistic,
      Period: a.Period,
      EvaluationPeriods: a.EvaluationPeriods,
      Threshold: a.Threshold,
      ComparisonOperator: a.ComparisonOperator,
    };
  },
};
