// The AWS SDK v3 clients of the backend providers, loaded on first use only: the build bundles them into
// dist/backend-sdk.cjs (scripts/bundle.mjs), so a server without --backend never reads them and the image needs no
// node_modules; unbundled runs (tests, dist/server) take them from node_modules.
import { createRequire } from 'node:module';

export interface BackendSdk {
  sqs: typeof import('@aws-sdk/client-sqs');
  sns: typeof import('@aws-sdk/client-sns');
  dynamodb: typeof import('@aws-sdk/client-dynamodb');
  iam: typeof import('@aws-sdk/client-iam');
  logs: typeof import('@aws-sdk/client-cloudwatch-logs');
  sfn: typeof import('@aws-sdk/client-sfn');
  kinesis: typeof import('@aws-sdk/client-kinesis');
  dynamodbStreams: typeof import('@aws-sdk/client-dynamodb-streams');
  /** HTTP/1.1 for the clients whose default is HTTP/2 (Kinesis): moto and most emulators speak only HTTP/1.1. */
  http: typeof import('@smithy/node-http-handler');
}

/** What scripts/backend-sdk.cjs exports: each client package under its short name. */
export const SDK_PACKAGES: Readonly<Record<keyof BackendSdk, string>> = {
  sqs: '@aws-sdk/client-sqs',
  sns: '@aws-sdk/client-sns',
  dynamodb: '@aws-sdk/client-dynamodb',
  iam: '@aws-sdk/client-iam',
  logs: '@aws-sdk/client-cloudwatch-logs',
  sfn: '@aws-sdk/client-sfn',
  kinesis: '@aws-sdk/client-kinesis',
  dynamodbStreams: '@aws-sdk/client-dynamodb-streams',
  http: '@smithy/node-http-handler',
};

let loaded: BackendSdk | undefined;

export function backendSdk(): BackendSdk {
  if (loaded) return loaded;
  // The SDK warns once, on stderr, that its 2027 releases will need Node 22: cfn-local runs on Node 20 (the image
  // too), and the warning would break its JSON log lines. The user's own setting wins.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const require = createRequire(import.meta.url);
  try {
    loaded = require('./backend-sdk.cjs') as BackendSdk;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    loaded = Object.fromEntries(Object.entries(SDK_PACKAGES).map(([k, pkg]) => [k, require(pkg)])) as BackendSdk;
  }
  return loaded;
}
