// The STS actions of the model that cfn-local does not serve: with STS_ACTIONS (index.ts) they cover the model, so
// a model update that adds an action does not compile until it gets a row. Each answers NotImplemented.
import { notImplemented } from '../actionTable.js';

export const NOT_SERVED = notImplemented([
  'AssumeRoleWithSAML',
  'AssumeRoleWithWebIdentity',
  'AssumeRoot',
  'DecodeAuthorizationMessage',
  'GetAccessKeyInfo',
  'GetDelegatedAccessToken',
  'GetFederationToken',
  'GetScopedCredentials',
  'GetWebIdentityToken',
]);
