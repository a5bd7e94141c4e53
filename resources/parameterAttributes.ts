// What the Rules functions Fn::ValueOf and Fn::ValueOfAll read: an attribute of the resource an AWS-specific
// parameter value names (a subnet's VpcId, a VPC's tags), from the simulated account.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-rules.html#rules-parameter-attributes
import type { WorldResource } from '../storage/world.js';

/** Parameter type → the world type its values name, and the attributes AWS documents for it (besides Tags.<key>). */
export const VALUE_OF_ATTRIBUTES: Partial<Record<string, { type: string; attributes: string[] }>> = {
  'AWS::EC2::VPC::Id': { type: 'AWS::EC2::VPC', attributes: ['DefaultNetworkAcl', 'DefaultSecurityGroup'] },
  'AWS::EC2::Subnet::Id': { type: 'AWS::EC2::Subnet', attributes: ['AvailabilityZone', 'VpcId'] },
  'AWS::EC2::SecurityGroup::Id': { type: 'AWS::EC2::SecurityGroup', attributes: [] },
};

/** Whether AWS documents this attribute for the parameter type (`Tags.<key>` for every type). */
export function supportsValueOf(parameterType: string, attribute: string): boolean {
  const entry = VALUE_OF_ATTRIBUTES[parameterType];
  return entry !== undefined && (attribute.startsWith('Tags.') || entry.attributes.includes(attribute));
}

/** The attribute's value on a resource, or '' when it has none (an untagged resource, an unset property). */
export function valueOfAttribute(resource: WorldResource, attribute: string): string {
  if (attribute.startsWith('Tags.')) {
    const key = attribute.slice('Tags.'.length);
    const tags = Array.isArray(resource.properties.Tags)
      ? (resource.properties.Tags as ({ Key?: unknown; Value?: unknown } | null)[])
      : [];
    const tag = tags.find((t) => t?.Key === key);
    return tag ? String(tag.Value ?? '') : '';
  }
  const value = resource.properties[attribute] ?? resource.attributes[attribute];
  return value === undefined || value === null ? '' : String(value);
}
