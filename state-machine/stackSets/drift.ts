// A stack set's drift, from its instances' latest detections: DRIFTED when one has drifted, IN_SYNC when all are in
// sync, with the counts DescribeStackSet and DescribeStackSetOperation show.
import type { DriftDetails, StackInstanceRecord } from '../../storage/index.js';

export const NOT_CHECKED: DriftDetails = {
  DriftStatus: 'NOT_CHECKED',
  TotalStackInstancesCount: 0,
  DriftedStackInstancesCount: 0,
  InSyncStackInstancesCount: 0,
  InProgressStackInstancesCount: 0,
  FailedStackInstancesCount: 0,
};

export function driftDetailsOf(instances: StackInstanceRecord[], checkedAt: string, partial: boolean): DriftDetails {
  const count = (s: string) => instances.filter((i) => i.doc.driftStatus === s).length;
  const drifted = count('DRIFTED');
  const inSync = count('IN_SYNC');
  const failed = instances.length - drifted - inSync;
  return {
    DriftStatus: drifted ? 'DRIFTED' : inSync === instances.length ? 'IN_SYNC' : 'NOT_CHECKED',
    DriftDetectionStatus: failed === 0 && !partial ? 'COMPLETED' : drifted + inSync ? 'PARTIAL_SUCCESS' : 'FAILED',
    LastDriftCheckTimestamp: checkedAt,
    TotalStackInstancesCount: instances.length,
    DriftedStackInstancesCount: drifted,
    InSyncStackInstancesCount: inSync,
    InProgressStackInstancesCount: 0,
    FailedStackInstancesCount: failed,
  };
}
