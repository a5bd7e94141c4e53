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
  events: typeof import('@aws-sdk/client-eventbridge');
  kms: typeof import('@aws-sdk/client-kms');
  secrets: typeof import('@aws-sdk/client-secrets-manager');
  apigateway: typeof import('@aws-sdk/client-api-gateway');
  ec2: typeof import('@aws-sdk/client-ec2');
  ecr: typeof import('@aws-sdk/client-ecr');
  cognito: typeof import('@aws-sdk/client-cognito-identity-provider');
  cloudwatch: typeof import('@aws-sdk/client-cloudwatch');
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
  events: '@aws-sdk/client-eventbridge',
  kms: '@aws-sdk/client-kms',
  secrets: '@aws-sdk/client-secrets-manager',
  apigateway: '@aws-sdk/client-api-gateway',
  ec2: '@aws-sdk/client-ec2',
  ecr: '@aws-sdk/client-ecr',
  cognito: '@aws-sdk/client-cognito-identity-provider',
  cloudwatch: '@aws-sdk/client-cloudwatch',
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
    // each package is read when a family first uses it (the EC2 client alone takes a while to load)
    const lazy = {};
    for (const [key, pkg] of Object.entries(SDK_PACKAGES)) {
      Object.defineProperty(lazy, key, { get: () => require(pkg) as unknown, enumerable: true });
    }
    loaded = lazy as BackendSdk;
  }
  return loaded;
}
