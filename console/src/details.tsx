// The plain tabs of a stack: resources (with the fault buttons), outputs, parameters, tags and the stack policy.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { call } from './api.js';
import { Status } from './status.js';
import { Highlighted } from './templateTab.js';
import type { StackDrift } from './drift.js';

interface Pair {
  [key: string]: string | undefined;
}

export interface StackResource {
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceType: string;
  ResourceStatus: string;
  ResourceStatusReason?: string;
}

export interface StackDetail {
  Stack: {
    StackId: string;
    StackName: string;
    StackStatus: string;
    StackStatusReason?: string;
    Outputs?: Pair[];
    Parameters?: Pair[];
    Tags?: Pair[];
    DriftInformation?: { StackDriftStatus: string; LastCheckTimestamp?: string };
  };
  Drift?: StackDrift;
  Account: string;
  Region: string;
  Resources?: StackResource[];
  TemplateOriginal?: string;
  TemplateProcessed?: string;
  StackPolicyBody?: string;
  ChangeSets?: { ChangeSetId: string; ChangeSetName: string; Status: string; ExecutionStatus: string }[];
}

export function Table({ caption, heads, rows }: { caption: string; heads: string[]; rows: ComponentChildren[][] }) {
  if (!rows.length) return <p class="empty">No {caption.toLowerCase()}.</p>;
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          {heads.map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            {r.map((c, j) => (
              <td key={j}>{c}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Registers a fault for the resource's next action, through the control API (POST /_cfn-local/faults). */
function FaultButtons({ stackName, r }: { stackName: string; r: StackResource }) {
  const [note, setNote] = useState('');
  const fail = (action: 'Create' | 'Update' | 'Delete') =>
    call('POST', '/faults', { action, stackName, logicalId: r.LogicalResourceId, times: 1 }).then(
      () => setNote(`next ${action.toLowerCase()} fails`),
      (e: Error) => setNote(e.message),
    );
  return (
    <span class="faults">
      {(['Create', 'Update', 'Delete'] as const).map((a) => (
        <button
          key={a}
          type="button"
          onClick={() => void fail(a)}
          aria-label={`Fail ${r.LogicalResourceId}'s next ${a.toLowerCase()}`}
        >
          Fail next {a.toLowerCase()}
        </button>
      ))}
      <span role="status">{note}</span>
    </span>
  );
}

export function DetailTabs({ tab, detail }: { tab: string; detail: StackDetail }) {
  const { Stack: s } = detail;
  switch (tab) {
    case 'Resources':
      return (
        <Table
          caption="Resources"
          heads={['Logical ID', 'Physical ID', 'Type', 'Status', 'Faults']}
          rows={(detail.Resources ?? []).map((r) => [
            r.LogicalResourceId,
            <code>{r.PhysicalResourceId}</code>,
            r.ResourceType,
            <span title={r.ResourceStatusReason}>
              <Status status={r.ResourceStatus} />
            </span>,
            <FaultButtons stackName={s.StackName} r={r} />,
          ])}
        />
      );
    case 'Outputs':
      return (
        <Table
          caption="Outputs"
          heads={['Key', 'Value', 'Description', 'Export name']}
          rows={(s.Outputs ?? []).map((o) => [o.OutputKey, <code>{o.OutputValue}</code>, o.Description, o.ExportName])}
        />
      );
    case 'Parameters':
      return (
        <Table
          caption="Parameters"
          heads={['Key', 'Value', 'Resolved value']}
          rows={(s.Parameters ?? []).map((p) => [p.ParameterKey, <code>{p.ParameterValue}</code>, p.ResolvedValue])}
        />
      );
    case 'Tags':
      return <Table caption="Tags" heads={['Key', 'Value']} rows={(s.Tags ?? []).map((t) => [t.Key, t.Value])} />;
    case 'Policy':
      return detail.StackPolicyBody ? (
        <Highlighted body={detail.StackPolicyBody} label="Stack policy" />
      ) : (
        <p class="empty">No stack policy.</p>
      );
    default:
      return null;
  }
}
