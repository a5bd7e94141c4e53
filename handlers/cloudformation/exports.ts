// ListExports and ListImports.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ListExports.html
import { echo, validationError } from '../../domain/errors.js';
import type { Handler } from './context.js';

export const listExports: Handler<'ListExports'> = (ctx) => ({
  Exports: ctx.store.exports.list(ctx.caller.account, ctx.caller.region).map((e) => ({
    ExportingStackId: e.stackId,
    Name: e.name,
    Value: e.value,
  })),
});

export const listImports: Handler<'ListImports'> = (ctx, input) => {
  const name = input.ExportName;
  if (!ctx.store.exports.get(ctx.caller.account, ctx.caller.region, name)) {
    throw validationError(`Export '${echo(name)}' could not be found.`);
  }
  const importers = ctx.store.exports.importers(ctx.caller.account, ctx.caller.region, name);
  return { Imports: importers.map((id) => ctx.store.stacks.byId(id)?.name ?? id) };
};
