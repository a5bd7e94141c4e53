// Parity with real AWS, as dynalite does it: with CFN_LOCAL_TEST_ENDPOINT set (plus the usual AWS credentials and
// AWS_REGION), the API and conformance tests run against that endpoint instead of an in-process cfn-local, and the
// files that need cfn-local itself are left out, each with its reason (vitest.config.ts). Unset (CI): nothing is.
import { readFileSync } from 'node:fs';

/** The endpoint the API and conformance tests target, when it is not an in-process cfn-local. */
export const TEST_ENDPOINT = process.env.CFN_LOCAL_TEST_ENDPOINT || undefined;

/** What makes a test file need cfn-local itself, and why, in the words the run prints. */
const LOCAL_ONLY: readonly [RegExp, string][] = [
  [/\bapp\b[.!]|\{\s*app\b|\.app\)/, "it reads cfn-local's storage or engine (server.app)"],
  [/_cfn-local|control\(|controlUrl/, "it uses cfn-local's control API (/_cfn-local)"],
  [/startServer\(\{/, 'it starts cfn-local with options (timers, clock, …) no other endpoint takes'],
  [
    /new (S3|SSM|Lambda|STS|CloudControl|SFN)Client\b|\b(s3|ssm|lambda)Client\(/,
    "it calls another service on cfn-local's port",
  ],
  [/\bfetch\(|rawSocket|request\(/, 'it speaks raw HTTP to cfn-local'],
  [/\bclientFor\(/, 'it signs as made-up accounts (12-digit access key ids), which only cfn-local takes as accounts'],
];

/** Why a test file cannot run against TEST_ENDPOINT, or undefined when it can. */
export function localOnlyReason(file: string): string | undefined {
  const text = readFileSync(file, 'utf8');
  return LOCAL_ONLY.find(([marker]) => marker.test(text))?.[1];
}
