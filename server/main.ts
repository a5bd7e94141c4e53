#!/usr/bin/env node
// Reads configuration (flags, then CFN_LOCAL_* variables, then defaults), starts the server, closes gracefully.
import { parseArgs } from 'node:util';
import pino from 'pino';
import { buildApp } from './app.js';

const { values } = parseArgs({
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    db: { type: 'string' },
    account: { type: 'string' },
    region: { type: 'string' },
    'log-level': { type: 'string' },
    endpoint: { type: 'string' },
    'custom-resource-timeout': { type: 'string' },
    'lambda-endpoint': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help) {
  process.stdout.write(`cfn-local [--host 127.0.0.1] [--port 4581] [--db ./.cfn-local/cfn.db | :memory:] [--account 000000000000] [--region us-east-1] [--log-level info]
          [--endpoint http://host:port] [--custom-resource-timeout 3600] [--lambda-endpoint http://host:port]
Each flag also reads CFN_LOCAL_HOST, CFN_LOCAL_PORT, CFN_LOCAL_DB, CFN_LOCAL_ACCOUNT, CFN_LOCAL_REGION, CFN_LOCAL_LOG_LEVEL,
CFN_LOCAL_ENDPOINT, CFN_LOCAL_CUSTOM_RESOURCE_TIMEOUT (seconds), CFN_LOCAL_LAMBDA_ENDPOINT.
`);
  process.exit(0);
}

const env = process.env;
const host = values.host ?? env.CFN_LOCAL_HOST ?? '127.0.0.1';
const port = Number(values.port ?? env.CFN_LOCAL_PORT ?? 4581);
const db = values.db ?? env.CFN_LOCAL_DB ?? './.cfn-local/cfn.db';
const logger = pino({ level: values['log-level'] ?? env.CFN_LOCAL_LOG_LEVEL ?? 'info' });
const customResourceTimeout = values['custom-resource-timeout'] ?? env.CFN_LOCAL_CUSTOM_RESOURCE_TIMEOUT;

const app = buildApp({
  db,
  defaultAccount: values.account ?? env.CFN_LOCAL_ACCOUNT,
  defaultRegion: values.region ?? env.CFN_LOCAL_REGION,
  logger,
  endpoint: values.endpoint ?? env.CFN_LOCAL_ENDPOINT,
  customResourceTimeoutMs: customResourceTimeout === undefined ? undefined : Number(customResourceTimeout) * 1000,
  lambdaEndpoint: values['lambda-endpoint'] ?? env.CFN_LOCAL_LAMBDA_ENDPOINT,
});

const address = await app.fastify.listen({ host, port });
logger.info({ address, db }, `cfn-local listening on ${address}`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'cfn-local stopping');
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
