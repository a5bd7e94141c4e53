// A stack's drift, as the AWS console's "Drift results" page shows it: the stack's drift status and last check, a
// button that starts a detection (DetectStackDrift), and each resource's latest result with the property
// differences. A detection's end arrives over the feed, which reloads the stack (stackView.tsx).
import { useState } from 'preact/hooks';
import { call } from './api.js';
import { Status } from './status.js';
import { Table, type StackDetail } from './details.js';

export interface PropertyDifference {
  PropertyPath: string;
  ExpectedValue: string;
  ActualValue: string;
  DifferenceType: string;
}

export interface ResourceDrift {
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceType: string;
  StackResourceDriftStatus: string;
  PropertyDifferences?: PropertyDifference[];
  Timestamp: string;
}

export interface StackDrift {
  Detection?: {
    StackDriftDetectionId: string;
    DetectionStatus: string;
    DetectionStatusReason?: string;
    StackDriftStatus?: string;
    DriftedStackResourceCount?: number;
    Timestamp: string;
  };
  Resources: ResourceDrift[];
}

function Differences({ list }: { list?: PropertyDifference[] }) {
  if (!list?.length) return null;
  return (
    <ul class="differences">
      {list.map((d) => (
        <li key={d.PropertyPath} data-path={d.PropertyPath}>
          <code>{d.PropertyPath}</code> {d.DifferenceType}: expected <code>{d.ExpectedValue}</code>, actual{' '}
          <code>{d.ActualValue}</code>
        </li>
      ))}
    </ul>
  );
}

export function DriftTab({ detail }: { detail: StackDetail }) {
  const [note, setNote] = useState('');
  const { Detection: d, Resources: results } = detail.Drift ?? { Resources: [] };
  const running = d?.DetectionStatus === 'DETECTION_IN_PROGRESS';
  const detect = () =>
    call('POST', `/stack/drift?id=${encodeURIComponent(detail.Stack.StackId)}`).then(
      () => setNote('Detection started'),
      (e: Error) => setNote(e.message),
    );
  return (
    <div class="drift">
      <p>
        Drift status: <Status status={detail.Stack.DriftInformation?.StackDriftStatus ?? 'NOT_CHECKED'} />
        {d && !running && d.DetectionStatus === 'DETECTION_COMPLETE' && (
          <>
            {' '}
            {d.DriftedStackResourceCount} resource{d.DriftedStackResourceCount === 1 ? '' : 's'} drifted; last check{' '}
            <time dateTime={d.Timestamp}>{new Date(d.Timestamp).toLocaleString()}</time>
          </>
        )}
        {d?.DetectionStatus === 'DETECTION_FAILED' && <> Detection failed: {d.DetectionStatusReason}</>}{' '}
        <button type="button" disabled={running} onClick={() => void detect()}>
          {running ? 'Detecting drift…' : 'Detect drift'}
        </button>{' '}
        <span role="status">{note}</span>
      </p>
      <Table
        caption="Resource drift"
        heads={['Logical ID', 'Physical ID', 'Type', 'Drift status', 'Differences']}
        rows={results.map((r) => [
          r.LogicalResourceId,
          <code>{r.PhysicalResourceId}</code>,
          r.ResourceType,
          <span data-drift={r.LogicalResourceId}>
            <Status status={r.StackResourceDriftStatus} />
          </span>,
          <Differences list={r.PropertyDifferences} />,
        ])}
      />
    </div>
  );
}
