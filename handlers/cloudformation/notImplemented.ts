// The CloudFormation Actions of the model that cfn-local does not serve: with ACTIONS (index.ts) they cover the
// model, so a model update that adds an Action does not compile until it gets a row. Each answers NotImplemented.
import { notImplemented } from '../actionTable.js';

export const NOT_SERVED = notImplemented([]);
