// RegisterType, DescribeTypeRegistration and ListTypeRegistrations: private extensions registered from a handler
// package in cfn-local's S3 store (state-machine/registry/register.ts).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_RegisterType.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeTypeRegistration.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ListTypeRegistrations.html
import { registryError, echo } from '../../../domain/errors.js';
import { registerType as register } from '../../../state-machine/registry/register.js';
import { categoryOf } from '../../../state-machine/registry/extensions.js';
import { parseTypeArn, dashedEquals } from '../../../state-machine/registry/arns.js';
import { pageOf } from '../stackSets/paging.js';
import type { Handler } from '../context.js';

export const registerType: Handler<'RegisterType'> = async (ctx, input) => {
  const token = await register(ctx.engine, ctx.caller, {
    category: categoryOf(input.Type),
    typeName: input.TypeName,
    schemaHandlerPackage: input.SchemaHandlerPackage,
    executionRoleArn: input.ExecutionRoleArn,
    loggingConfig: input.LoggingConfig,
    clientRequestToken: input.ClientRequestToken,
  });
  return { RegistrationToken: token };
};

export const describeTypeRegistration: Handler<'DescribeTypeRegistration'> = (ctx, input) => {
  const r = ctx.store.registry.registration(input.RegistrationToken);
  if (!r || r.account !== ctx.caller.account || r.region !== ctx.caller.region) {
    throw registryError(`Registration token ${echo(input.RegistrationToken)} not found`);
  }
  return {
    ProgressStatus: r.status,
    Description: r.description,
    TypeArn: r.typeArn,
    TypeVersionArn: r.typeVersionArn,
  };
};

export const listTypeRegistrations: Handler<'ListTypeRegistrations'> = (ctx, input) => {
  // AWS's default filter is IN_PROGRESS: a completed registration is listed only when asked for.
  const status = input.RegistrationStatusFilter ?? 'IN_PROGRESS';
  const arn = input.TypeArn !== undefined ? parseTypeArn(input.TypeArn) : undefined;
  const category = input.Type !== undefined || input.TypeName !== undefined ? categoryOf(input.Type) : undefined;
  const tokens = ctx.store.registry
    .registrations(ctx.caller.account, ctx.caller.region)
    .filter((r) => r.status === status)
    .filter(
      (r) =>
        input.TypeArn === undefined ||
        (arn !== undefined && r.category === arn.category && dashedEquals(r.typeName, arn.dashedName)),
    )
    .filter((r) => input.TypeName === undefined || (r.typeName === input.TypeName && r.category === category))
    .map((r) => r.token);
  const { page, NextToken } = pageOf(tokens, input.NextToken, input.MaxResults);
  return { RegistrationTokenList: page, NextToken };
};
