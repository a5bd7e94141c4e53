// The account-wide actions: DescribeAccountLimits (AWS's default quotas) and EstimateTemplateCost (AWS answers with
// a link to its pricing calculator, keyed by the template it was given).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeAccountLimits.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_EstimateTemplateCost.html
import { v4 as uuidv4 } from 'uuid';
import { staticModel } from '../../template/summary.js';
import type { Handler } from './context.js';
import { bodyOf, summaryWorld } from './templates.js';

/**
 * AWS's default quotas, in the order the AWS CLI's example prints them (cloudformation-limits.html: 2,000 stacks per
 * account and region, 200 outputs per template, 2,500 resources in concurrent operations).
 */
export const ACCOUNT_LIMITS = [
  { Name: 'StackLimit', Value: 2000 },
  { Name: 'StackOutputsLimit', Value: 200 },
  { Name: 'ConcurrentResourcesLimit', Value: 2500 },
] as const;

export const describeAccountLimits: Handler<'DescribeAccountLimits'> = () => ({
  AccountLimits: ACCOUNT_LIMITS.map((limit) => ({ ...limit })),
});

/** The calculator link AWS gives; the template must parse and validate first, as AWS's does. */
export const estimateTemplateCost: Handler<'EstimateTemplateCost'> = async (ctx, input) => {
  staticModel(await bodyOf(ctx, input), summaryWorld(ctx));
  return { Url: `http://calculator.s3.amazonaws.com/calc5.html?key=cloudformation/${uuidv4()}` };
};
