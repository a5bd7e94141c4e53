// ActivateType, DeactivateType, SetTypeConfiguration and BatchDescribeTypeConfigurations.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ActivateType.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DeactivateType.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_SetTypeConfiguration.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_BatchDescribeTypeConfigurations.html
import type {
  BatchDescribeTypeConfigurationsError,
  TypeConfigurationDetails,
  TypeConfigurationIdentifier,
} from '../../../generated/cloudformation.js';
import { AwsError, typeNotFound, validationError } from '../../../domain/errors.js';
import { activateType as activate, deactivateType as deactivate } from '../../../state-machine/registry/activate.js';
import { configurationArnOf, setTypeConfiguration as configure } from '../../../state-machine/registry/configure.js';
import { findExtension } from '../../../state-machine/registry/extensions.js';
import { extensionArn } from '../../../state-machine/registry/extensions.js';
import type { Handler, HandlerContext } from '../context.js';

export const activateType: Handler<'ActivateType'> = (ctx, input) => ({
  Arn: activate(ctx.engine, ctx.caller, input),
});

export const deactivateType: Handler<'DeactivateType'> = (ctx, input) => {
  deactivate(ctx.engine, ctx.caller, input);
  return {};
};

export const setTypeConfiguration: Handler<'SetTypeConfiguration'> = (ctx, input) => ({
  ConfigurationArn: configure(ctx.engine, ctx.caller, input),
});

/** AWS's most identifiers in one call (the model's list length). */
const MAX_IDENTIFIERS = 100;

export const batchDescribeTypeConfigurations: Handler<'BatchDescribeTypeConfigurations'> = (ctx, input) => {
  const ids = input.TypeConfigurationIdentifiers;
  if (ids.length < 1 || ids.length > MAX_IDENTIFIERS) {
    throw validationError(
      `1 validation error detected: Value '${JSON.stringify(ids)}' at 'typeConfigurationIdentifiers' failed to satisfy constraint: Member must have length ${ids.length < 1 ? 'greater than or equal to 1' : `less than or equal to ${MAX_IDENTIFIERS}`}`,
    );
  }
  // AWS's answer to an identifier that names nothing (recorded with `[{}]`).
  if (
    ids.some((id) => id.TypeArn === undefined && id.TypeName === undefined && id.TypeConfigurationArn === undefined)
  ) {
    throw validationError(
      "1 validation error detected: Value null at 'typeConfigurationIdentifiers' failed to satisfy constraint: Member must not be null",
    );
  }
  const TypeConfigurations: TypeConfigurationDetails[] = [];
  const Errors: BatchDescribeTypeConfigurationsError[] = [];
  for (const id of ids) {
    try {
      TypeConfigurations.push(...configurationsOf(ctx, id));
    } catch (err) {
      if (!(err instanceof AwsError)) throw err;
      Errors.push({ ErrorCode: err.code, ErrorMessage: err.message, TypeConfigurationIdentifier: id });
    }
  }
  return { Errors, UnprocessedTypeConfigurations: [], TypeConfigurations };
};

/** The configurations one identifier names: by configuration ARN, or its type's (one alias, or all of them). */
function configurationsOf(ctx: HandlerContext, id: TypeConfigurationIdentifier): TypeConfigurationDetails[] {
  let alias = id.TypeConfigurationAlias;
  let arn = id.TypeArn;
  if (id.TypeConfigurationArn !== undefined && arn === undefined && id.TypeName === undefined) {
    const m = /^(arn:[^:]+:cloudformation:[^:]*:[^:]*:)type-configuration\/([a-z]+\/[^/]+)\/([^/]+)$/.exec(
      id.TypeConfigurationArn,
    );
    if (!m) throw typeNotFound(id.TypeConfigurationArn);
    arn = `${m[1]}type/${m[2]}`;
    alias = m[3];
  }
  const { ext } = findExtension(ctx.store, ctx.caller, {
    Arn: arn,
    Type: arn === undefined ? id.Type : undefined,
    TypeName: arn === undefined ? id.TypeName : undefined,
  });
  const found = ctx.store.registry
    .configurations(ctx.caller.account, ctx.caller.region, ext.category, ext.typeName)
    .filter((c) => alias === undefined || c.alias === alias);
  return found.map((c) => ({
    Arn: configurationArnOf(ctx.caller, ext, c.alias),
    Alias: c.alias,
    Configuration: c.configuration,
    LastUpdated: new Date(c.lastUpdated),
    TypeArn: extensionArn(ctx.caller, ext),
  }));
}
