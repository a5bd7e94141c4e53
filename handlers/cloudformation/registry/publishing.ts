// DeregisterType, SetTypeDefaultVersion, RegisterPublisher, DescribePublisher, TestType, PublishType and
// RecordHandlerProgress.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DeregisterType.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_SetTypeDefaultVersion.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_RegisterPublisher.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribePublisher.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_TestType.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_PublishType.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_RecordHandlerProgress.html
import { awsError } from '../../../domain/errors.js';
import {
  deregisterType as deregister,
  setTypeDefaultVersion as setDefault,
} from '../../../state-machine/registry/versions.js';
import {
  describePublisher as publisherOf,
  publishType as publish,
  registerPublisher as register,
  testType as test,
} from '../../../state-machine/registry/publishing.js';
import type { Handler } from '../context.js';

export const deregisterType: Handler<'DeregisterType'> = (ctx, input) => {
  deregister(ctx.engine, ctx.caller, input);
  return {};
};

export const setTypeDefaultVersion: Handler<'SetTypeDefaultVersion'> = (ctx, input) => {
  setDefault(ctx.engine, ctx.caller, input);
  return {};
};

export const registerPublisher: Handler<'RegisterPublisher'> = (ctx, input) => ({
  PublisherId: register(ctx.engine, ctx.caller, input),
});

export const describePublisher: Handler<'DescribePublisher'> = (ctx, input) =>
  publisherOf(ctx.store, ctx.caller, input.PublisherId);

export const testType: Handler<'TestType'> = (ctx, input) => ({ TypeVersionArn: test(ctx.engine, ctx.caller, input) });

export const publishType: Handler<'PublishType'> = (ctx, input) => ({
  PublicTypeArn: publish(ctx.engine, ctx.caller, input),
});

/**
 * Reserved for the CloudFormation CLI's handlers, which report with the bearer token CloudFormation gave their
 * invocation. cfn-local invokes no extension handler, so no token names an operation: the answer is the check AWS
 * makes of the token's operation, failed.
 */
export const recordHandlerProgress: Handler<'RecordHandlerProgress'> = () => {
  throw awsError('ConditionalCheckFailed', 'No handler operation is in progress for this bearer token');
};
