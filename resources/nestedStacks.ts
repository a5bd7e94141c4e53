// AWS::CloudFormation::Stack: a nested stack is a real child stack, so its provider hands every action to the
// engine's door (ProviderEnv.stacks) and turns the child's outcome into a result or a refusal.
import { genericProvider } from './genericProvider.js';
import type { Provider, ProviderResult, Refusal, ResourceRequest } from './provider.js';

export const NESTED_STACK_TYPE = 'AWS::CloudFormation::Stack';

const noDoor = (req: ResourceRequest): Refusal => ({
  ok: false,
  code: 'InternalFailure',
  reason: `Nested stack ${req.logicalId} cannot be provisioned without the engine`,
});

export const nestedStackProvider: Provider = {
  ...genericProvider,
  create: (_world, req) => req.env?.stacks?.create(req) ?? noDoor(req),
  stabilize: async (_world, req, created): Promise<ProviderResult> =>
    req.env?.stacks?.awaitCreate(req, created) ?? noDoor(req),
  update: (_world, req) => req.env?.stacks?.update(req) ?? noDoor(req),
  delete: (_world, req) => req.env?.stacks?.delete(req) ?? noDoor(req),
  changedOutside: async (req) => (await req.env?.stacks?.templateChanged(req)) ?? false,
  // TemplateURL, Parameters and the rest update the child in place: a nested stack is never replaced
  replacementNeeded: () => [],
};
