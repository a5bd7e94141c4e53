// server/protocol: the wire formats of the CloudFormation API, as the HTTP layer imports them.
export * from './errors.js';
export * from './json.js';
export * from './query.js';
export * from './model.js';
export * from './sigv4.js';
export * from './xml.js';
