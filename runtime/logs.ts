// An invocation's log as Lambda writes it to CloudWatch: the platform's START, END and REPORT lines around what the
// function printed, and the tail Invoke returns for LogType=Tail (the last 4 KB, base64).
// https://docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs.html
import type { Outcome } from './environment.js';

const TAIL_BYTES = 4096;

export function invocationLog(requestId: string, version: string, memoryMb: number, outcome: Outcome): string {
  const report = [
    `REPORT RequestId: ${requestId}`,
    `Duration: ${outcome.durationMs.toFixed(2)} ms`,
    `Billed Duration: ${Math.max(1, Math.ceil(outcome.durationMs))} ms`,
    `Memory Size: ${memoryMb} MB`,
    ...(outcome.maxMemoryMb === undefined ? [] : [`Max Memory Used: ${outcome.maxMemoryMb} MB`]),
    ...(outcome.initDurationMs === undefined ? [] : [`Init Duration: ${outcome.initDurationMs.toFixed(2)} ms`]),
  ].join('\t');
  return `START RequestId: ${requestId} Version: ${version}\n${outcome.log}END RequestId: ${requestId}\n${report}\t\n`;
}

/** The X-Amz-Log-Result value: the log's last 4 KB, base64. */
export function logTail(log: string): string {
  const bytes = Buffer.from(log, 'utf8');
  return bytes.subarray(Math.max(0, bytes.length - TAIL_BYTES)).toString('base64');
}
