// A hook's ConfigurationSchema as DescribeType returns it: the registry's hook type configuration schema, with the
// hook schema's typeConfiguration as HookConfiguration.Properties (the shape AWS's answer has, shortened to the
// members SetTypeConfiguration checks and the filters it accepts).
import type { Caller } from '../../../state-machine/engine.js';

export function hookConfigurationSchema(scope: Caller, hookSchema: Record<string, unknown>): string {
  const typeConfiguration = (hookSchema.typeConfiguration ?? { properties: {}, additionalProperties: false }) as Record<
    string,
    unknown
  >;
  return JSON.stringify({
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: `https://schema.cloudformation.${scope.region}.amazonaws.com/cloudformation.hook.configuration.schema.v1.json`,
    title: 'CloudFormation Hook Type Configuration Schema',
    description: 'This schema validates the CFN hook type configuration that could be set by customers',
    type: 'object',
    additionalProperties: false,
    properties: {
      CloudFormationConfiguration: {
        additionalProperties: false,
        properties: {
          HookConfiguration: {
            type: 'object',
            additionalProperties: false,
            properties: {
              HookInvocationStatus: { type: 'string', enum: ['ENABLED', 'DISABLED'] },
              TargetOperations: {
                type: 'array',
                items: { type: 'string', enum: ['STACK', 'RESOURCE', 'CHANGE_SET', 'CLOUD_CONTROL'] },
              },
              TargetStacks: { type: 'string', enum: ['ALL', 'NONE'], default: 'NONE' },
              FailureMode: { type: 'string', enum: ['FAIL', 'WARN'], default: 'WARN' },
              StackFilters: { type: 'object' },
              TargetFilters: { type: 'object' },
              Properties: {
                typeName: hookSchema.typeName,
                description: 'Hook runtime properties',
                type: 'object',
                ...typeConfiguration,
              },
            },
            required: ['FailureMode'],
            anyOf: [{ required: ['HookInvocationStatus'] }, { required: ['TargetStacks'] }],
          },
        },
        required: ['HookConfiguration'],
      },
    },
    required: ['CloudFormationConfiguration'],
  });
}
