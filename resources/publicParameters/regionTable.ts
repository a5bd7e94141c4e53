// The commercial regions as AWS's global-infrastructure public parameters describe them (long name, country,
// ISO 3166-2 subdivision): the data behind /aws/service/global-infrastructure/regions/<region>/….
// https://docs.aws.amazon.com/systems-manager/latest/userguide/parameter-store-public-parameters-global-infrastructure.html

export interface RegionFacts {
  longName: string;
  geolocationCountry: string;
  geolocationRegion: string;
}

export const REGION_TABLE: Record<string, RegionFacts> = {
  'us-east-1': { longName: 'US East (N. Virginia)', geolocationCountry: 'US', geolocationRegion: 'US-VA' },
  'us-east-2': { longName: 'US East (Ohio)', geolocationCountry: 'US', geolocationRegion: 'US-OH' },
  'us-west-1': { longName: 'US West (N. California)', geolocationCountry: 'US', geolocationRegion: 'US-CA' },
  'us-west-2': { longName: 'US West (Oregon)', geolocationCountry: 'US', geolocationRegion: 'US-OR' },
  'af-south-1': { longName: 'Africa (Cape Town)', geolocationCountry: 'ZA', geolocationRegion: 'ZA-WC' },
  'ap-east-1': { longName: 'Asia Pacific (Hong Kong)', geolocationCountry: 'HK', geolocationRegion: 'HK-HK' },
  'ap-south-1': { longName: 'Asia Pacific (Mumbai)', geolocationCountry: 'IN', geolocationRegion: 'IN-MH' },
  'ap-south-2': { longName: 'Asia Pacific (Hyderabad)', geolocationCountry: 'IN', geolocationRegion: 'IN-TG' },
  'ap-southeast-1': { longName: 'Asia Pacific (Singapore)', geolocationCountry: 'SG', geolocationRegion: 'SG-01' },
  'ap-southeast-2': { longName: 'Asia Pacific (Sydney)', geolocationCountry: 'AU', geolocationRegion: 'AU-NSW' },
  'ap-southeast-3': { longName: 'Asia Pacific (Jakarta)', geolocationCountry: 'ID', geolocationRegion: 'ID-JK' },
  'ap-southeast-4': { longName: 'Asia Pacific (Melbourne)', geolocationCountry: 'AU', geolocationRegion: 'AU-VIC' },
  'ap-northeast-1': { longName: 'Asia Pacific (Tokyo)', geolocationCountry: 'JP', geolocationRegion: 'JP-13' },
  'ap-northeast-2': { longName: 'Asia Pacific (Seoul)', geolocationCountry: 'KR', geolocationRegion: 'KR-11' },
  'ap-northeast-3': { longName: 'Asia Pacific (Osaka)', geolocationCountry: 'JP', geolocationRegion: 'JP-27' },
  'ca-central-1': { longName: 'Canada (Central)', geolocationCountry: 'CA', geolocationRegion: 'CA-QC' },
  'ca-west-1': { longName: 'Canada West (Calgary)', geolocationCountry: 'CA', geolocationRegion: 'CA-AB' },
  'eu-central-1': { longName: 'Europe (Frankfurt)', geolocationCountry: 'DE', geolocationRegion: 'DE-HE' },
  'eu-central-2': { longName: 'Europe (Zurich)', geolocationCountry: 'CH', geolocationRegion: 'CH-ZH' },
  'eu-west-1': { longName: 'Europe (Ireland)', geolocationCountry: 'IE', geolocationRegion: 'IE-D' },
  'eu-west-2': { longName: 'Europe (London)', geolocationCountry: 'GB', geolocationRegion: 'GB-ENG' },
  'eu-west-3': { longName: 'Europe (Paris)', geolocationCountry: 'FR', geolocationRegion: 'FR-75' },
  'eu-south-1': { longName: 'Europe (Milan)', geolocationCountry: 'IT', geolocationRegion: 'IT-MI' },
  'eu-south-2': { longName: 'Europe (Spain)', geolocationCountry: 'ES', geolocationRegion: 'ES-AR' },
  'eu-north-1': { longName: 'Europe (Stockholm)', geolocationCountry: 'SE', geolocationRegion: 'SE-AB' },
  'il-central-1': { longName: 'Israel (Tel Aviv)', geolocationCountry: 'IL', geolocationRegion: 'IL-TA' },
  'me-south-1': { longName: 'Middle East (Bahrain)', geolocationCountry: 'BH', geolocationRegion: 'BH-13' },
  'me-central-1': { longName: 'Middle East (UAE)', geolocationCountry: 'AE', geolocationRegion: 'AE-DU' },
  'sa-east-1': { longName: 'South America (Sao Paulo)', geolocationCountry: 'BR', geolocationRegion: 'BR-SP' },
};

const DIRECTION: Record<string, string> = {
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
  central: 'c',
  northeast: 'ne',
  northwest: 'nw',
  southeast: 'se',
  southwest: 'sw',
};

/** AWS's short region code in zone ids: us-east-1 → use1, ap-northeast-1 → apne1, eu-central-1 → euc1. */
export function zoneIdPrefix(region: string): string {
  const [area, direction = '', number = ''] = region.split('-').filter((part) => part !== 'gov');
  return `${area}${DIRECTION[direction] ?? direction.slice(0, 1)}${number}`;
}
