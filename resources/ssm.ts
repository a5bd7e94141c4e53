// AWS::SSM::Parameter: the parameter's value lives in the world (properties.Value) with its version history
// (state.versions, version N at index N-1), so that `{{resolve:ssm:name:N}}` reads the value of version N.
// A name under AWS's reserved prefixes is refused as SSM's PutParameter refuses it; the type is still on
// CloudFormation's legacy engine, so the reason is the service error in the SDK's format, not the handler's.
import { randomUUID } from 'node:crypto';
import { genericProvider } from './genericProvider.js';
import type { Provider, ProviderResult, ResourceRequest, WorldAccess } from './provider.js';
import { reservedParameterNameMessage } from './ssmParameters.js';

const valueOf = (properties: Record<string, unknown>) =>
  Array.isArray(properties.Value) ? properties.Value.join(',') : String(properties.Value ?? '');

/** Records the version the provider's write just made (a new value is a new version, as PutParameter does). */
function recordVersion(world: WorldAccess, physicalId: string, fresh: boolean): void {
  const found = world.get('AWS::SSM::Parameter', physicalId);
  if (!found) return;
  const versions = fresh ? [] : [...(found.state.versions ?? [])];
  const value = valueOf(found.properties);
  if (versions.at(-1) !== value || versions.length === 0) versions.push(value);
  world.put({ ...found, state: { ...found.state, versions } });
}

function reservedName(req: ResourceRequest): ProviderResult | undefined {
  const message =
    typeof req.properties.Name === 'string' ? reservedParameterNameMessage(req.properties.Name) : undefined;
  if (!message) return undefined;
  return {
    ok: false,
    code: 'ValidationException',
    reason: `${message} (Service: AmazonSSM; Status Code: 400; Error Code: ValidationException; Request ID: ${randomUUID()}; Proxy: null)`,
  };
}

export const ssmParameterProvider: Provider = {
  ...genericProvider,
  async create(world, req) {
    const refused = reservedName(req);
    if (refused) return refused;
    const result = await genericProvider.create(world, req);
    if (result.ok) recordVersion(world, result.physicalId, true);
    return result;
  },
  async update(world, req) {
    const result = await genericProvider.update(world, req);
    if (result.ok) recordVersion(world, result.physicalId, false);
    return result;
  },
};
