// AWS's public SSM parameters (`/aws/service/…`): present in every account and region, read-only, the same on every
// run. resources/ssmParameters.ts reads them beside the account's own parameters.
// https://docs.aws.amazon.com/systems-manager/latest/userguide/parameter-store-finding-public-parameters.html
import { amiId, amiParameters, type PublicEntry } from './amis.js';
import { distributionParameters, marketplaceParameter } from './distributions.js';
import { globalInfrastructureParameters } from './globalInfrastructure.js';
import { urlSuffixOf } from '../regions.js';

export type { PublicEntry } from './amis.js';

const PREFIX = '/aws/service/';

/** Names under `/aws/service/` belong to AWS: they are read by anyone and written by no one. */
export const isPublicParameterName = (name: string): boolean => name.startsWith(PREFIX);

const text = (name: string, value: string): PublicEntry => ({ name, value, dataType: 'text' });

/** The other public paths templates commonly read: log router images, Powertools layers, Cloud9 AMIs. */
function otherParameters(region: string): PublicEntry[] {
  const ecr = `906394416424.dkr.ecr.${region}.${urlSuffixOf(region)}/aws-for-fluent-bit`;
  const powertools = (runtime: string, layer: string, version: number) =>
    text(
      `/aws/service/powertools/${runtime}/latest`,
      `arn:aws:lambda:${region}:017000801446:layer:${layer}:${version}`,
    );
  return [
    text('/aws/service/aws-for-fluent-bit/latest', `${ecr}:latest`),
    text('/aws/service/aws-for-fluent-bit/stable', `${ecr}:stable`),
    text('/aws/service/aws-for-fluent-bit/2.32.4', `${ecr}:2.32.4`),
    powertools('python/x86_64/python3.12', 'AWSLambdaPowertoolsPythonV3-python312-x86_64', 7),
    powertools('python/arm64/python3.12', 'AWSLambdaPowertoolsPythonV3-python312-arm64', 7),
    powertools('python/x86_64/python3.13', 'AWSLambdaPowertoolsPythonV3-python313-x86_64', 7),
    text(
      '/aws/service/powertools/typescript/generic/all/latest',
      `arn:aws:lambda:${region}:094274105915:layer:AWSLambdaPowertoolsTypeScriptV2:20`,
    ),
    ...['amazonlinux-2-x86_64', 'amazonlinux-2023-x86_64', 'ubuntu-22.04-x86_64'].map((n) => {
      const name = `/aws/service/cloud9/amis/${n}`;
      return { name, value: amiId(region, name), dataType: 'aws:ec2:image' as const };
    }),
  ];
}

/**
 * The catalogues of the regions used last, newest last. A catalogue is ~5,000 entries and the region is whatever a
 * request's credential scope says, so keeping every region's let a fuzzer varying it grow the heap without end
 * (~80 MB in 100 s, bench/README.md); a rebuilt catalogue costs ~10-20 ms.
 */
const BY_REGION = new Map<string, Map<string, PublicEntry>>();
const REGIONS_KEPT = 4;

function catalogue(region: string): Map<string, PublicEntry> {
  let found = BY_REGION.get(region);
  if (found) BY_REGION.delete(region);
  else {
    const entries = [
      ...amiParameters(region),
      ...distributionParameters(region),
      ...globalInfrastructureParameters(),
      ...otherParameters(region),
    ];
    found = new Map(entries.map((e) => [e.name, e]));
    if (BY_REGION.size >= REGIONS_KEPT) BY_REGION.delete(BY_REGION.keys().next().value!);
  }
  BY_REGION.set(region, found);
  return found;
}

/** The public parameter of this name in the region, or undefined. */
export function publicParameter(region: string, name: string): PublicEntry | undefined {
  if (!isPublicParameterName(name)) return undefined;
  return catalogue(region).get(name) ?? marketplaceParameter(region, name);
}

/** The public parameters under a path (one level, or every level when recursive), sorted by name. */
export function publicParametersUnder(region: string, path: string, recursive: boolean): PublicEntry[] {
  const prefix = path.endsWith('/') ? path : `${path}/`;
  if (!isPublicParameterName(prefix)) return [];
  return [...catalogue(region).values()]
    .filter((e) => e.name.startsWith(prefix) && (recursive || !e.name.slice(prefix.length).includes('/')))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
