// Regions of the simulated world: partition, URL suffix and availability zones per region.

export function partitionOf(region: string): string {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  if (region.startsWith('us-iso-')) return 'aws-iso';
  if (region.startsWith('us-isob-')) return 'aws-iso-b';
  return 'aws';
}

export function urlSuffixOf(region: string): string {
  return region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
}

/** Zones as Fn::GetAZs lists them; us-east-1 has six, most regions three. */
const ZONE_LETTERS: Record<string, string> = { 'us-east-1': 'abcdef', 'us-west-2': 'abcd', 'ap-northeast-1': 'acd' };

export function availabilityZones(region: string): string[] {
  return Array.from(ZONE_LETTERS[region] ?? 'abc').map((letter) => `${region}${letter}`);
}
