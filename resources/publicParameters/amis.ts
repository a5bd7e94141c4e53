// The latest-AMI public parameters AWS publishes: Amazon Linux, Windows, the ECS- and EKS-optimized AMIs and
// Bottlerocket, by the names AWS publishes them under (Ubuntu and Debian: distributions.ts). Each value is an AMI id stable per region.
// https://docs.aws.amazon.com/systems-manager/latest/userguide/parameter-store-public-parameters-ami.html
// https://docs.aws.amazon.com/AmazonECS/latest/developerguide/retrieve-ecs-optimized_AMI.html
// https://docs.aws.amazon.com/eks/latest/userguide/retrieve-ami-id.html
import { createHash } from 'node:crypto';

/** One public parameter: its full name, value, data type and the version AWS's catalogue is at. */
export interface PublicEntry {
  name: string;
  value: string;
  dataType: 'text' | 'aws:ec2:image';
}

/** `ami-` and 17 hex digits, the same for one name in one region on every run. */
export function amiId(region: string, name: string): string {
  return `ami-${createHash('sha256').update(`${region}\0${name}`).digest('hex').slice(0, 17)}`;
}

const cross = (a: string[], b: string[]) => a.flatMap((x) => b.map((y) => x.replace('*', y)));

const AMAZON_LINUX = [
  ...cross(
    [
      'al2023-ami-kernel-*-x86_64',
      'al2023-ami-kernel-*-arm64',
      'al2023-ami-minimal-kernel-*-x86_64',
      'al2023-ami-minimal-kernel-*-arm64',
    ],
    ['default', '6.1', '6.12'],
  ),
  'amzn2-ami-hvm-x86_64-gp2',
  'amzn2-ami-hvm-x86_64-ebs',
  'amzn2-ami-hvm-arm64-gp2',
  'amzn2-ami-hvm-arm64-ebs',
  'amzn2-ami-kernel-5.10-hvm-x86_64-gp2',
  'amzn2-ami-kernel-5.10-hvm-x86_64-ebs',
  'amzn2-ami-kernel-5.10-hvm-arm64-gp2',
  'amzn2-ami-kernel-5.10-hvm-arm64-ebs',
  'amzn2-ami-minimal-hvm-x86_64-ebs',
  'amzn2-ami-minimal-hvm-arm64-ebs',
  'amzn-ami-hvm-x86_64-gp2',
  'amzn-ami-hvm-x86_64-ebs',
  'amzn-ami-hvm-x86_64-s3',
  'amzn-ami-minimal-hvm-x86_64-ebs',
  'amzn-ami-pv-x86_64-ebs',
].map((n) => `ami-amazon-linux-latest/${n}`);

const WINDOWS = cross(
  [
    'Windows_Server-*-English-Full-Base',
    'Windows_Server-*-English-Core-Base',
    'Windows_Server-*-English-Full-ContainersLatest',
    'Windows_Server-*-English-Core-ContainersLatest',
    'Windows_Server-*-English-Full-ECS_Optimized',
    'Windows_Server-*-English-Core-ECS_Optimized',
    'Windows_Server-*-English-Full-EKS_Optimized-1.31',
    'Windows_Server-*-Japanese-Full-Base',
    'Windows_Server-*-German-Full-Base',
  ],
  ['2016', '2019', '2022', '2025'],
)
  .concat(
    [
      ['2016', 'SQL_2016_SP3'],
      ['2016', 'SQL_2017'],
      ['2019', 'SQL_2017'],
      ['2019', 'SQL_2019'],
      ['2019', 'SQL_2022'],
      ['2022', 'SQL_2019'],
      ['2022', 'SQL_2022'],
      ['2025', 'SQL_2022'],
    ].flatMap(([server, sql]) =>
      ['Standard', 'Web', 'Enterprise', 'Express'].map(
        (edition) => `Windows_Server-${server}-English-Full-${sql}_${edition}`,
      ),
    ),
  )
  .map((n) => `ami-windows-latest/${n}`);

const ECS_FAMILIES = [
  'amazon-linux-2023',
  'amazon-linux-2023/arm64',
  'amazon-linux-2023/gpu',
  'amazon-linux-2023/neuron',
  'amazon-linux-2',
  'amazon-linux-2/arm64',
  'amazon-linux-2/gpu',
  'amazon-linux-2/inf',
  'amazon-linux-2/kernel-5.10',
  'amazon-linux-2/kernel-5.10/arm64',
  'amazon-linux-2/kernel-5.10/gpu',
  'amazon-linux',
  'windows_server/2022/english/full',
  'windows_server/2022/english/core',
  'windows_server/2019/english/full',
  'windows_server/2019/english/core',
  'windows_server/2016/english/full',
];

export const EKS_VERSIONS = ['1.25', '1.26', '1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'];
const EKS_FAMILIES = [
  'amazon-linux-2',
  'amazon-linux-2-arm64',
  'amazon-linux-2-gpu',
  'amazon-linux-2023/x86_64/standard',
  'amazon-linux-2023/arm64/standard',
  'amazon-linux-2023/x86_64/nvidia',
  'amazon-linux-2023/x86_64/neuron',
];

const BOTTLEROCKET_VARIANTS = [
  'aws-ecs-1',
  'aws-ecs-2',
  'aws-ecs-2-nvidia',
  ...EKS_VERSIONS.flatMap((v) => [`aws-k8s-${v}`, `aws-k8s-${v}-nvidia`]),
];

const image = (region: string, path: string): PublicEntry => {
  const name = `/aws/service/${path}`;
  return { name, value: amiId(region, name), dataType: 'aws:ec2:image' };
};
const text = (name: string, value: string): PublicEntry => ({ name, value, dataType: 'text' });

/** The ECS-optimized family's JSON summary and its sub-parameters, as AWS publishes them. */
function ecsFamily(region: string, family: string): PublicEntry[] {
  const base = `/aws/service/ecs/optimized-ami/${family}/recommended`;
  const id = image(region, `ecs/optimized-ami/${family}/recommended/image_id`);
  const os = family.startsWith('windows')
    ? 'Windows'
    : family.startsWith('amazon-linux-2023')
      ? 'Amazon Linux 2023'
      : family.startsWith('amazon-linux-2')
        ? 'Amazon Linux 2'
        : 'Amazon Linux';
  const imageName = `${family.replace(/\//g, '-')}-ecs-optimized-2025.01.15`;
  const summary = {
    ecs_agent_version: '1.89.2',
    image_id: id.value,
    image_name: imageName,
    image_version: '2025.01.15',
    os,
    schema_version: 1,
  };
  return [
    text(base, JSON.stringify(summary)),
    id,
    text(`${base}/image_name`, imageName),
    text(`${base}/ecs_agent_version`, summary.ecs_agent_version),
    text(`${base}/os`, os),
  ];
}

function eksFamily(region: string, version: string, family: string): PublicEntry[] {
  const base = `/aws/service/eks/optimized-ami/${version}/${family}/recommended`;
  return [
    image(region, `eks/optimized-ami/${version}/${family}/recommended/image_id`),
    text(`${base}/release_version`, `${version}.8-20250115`),
  ];
}

function bottlerocket(region: string, variant: string, arch: string): PublicEntry[] {
  const base = `/aws/service/bottlerocket/${variant}/${arch}/latest`;
  return [
    image(region, `bottlerocket/${variant}/${arch}/latest/image_id`),
    text(`${base}/image_version`, '1.32.0-cacc4ce9'),
  ];
}

/** Every latest-AMI parameter of one region. */
export function amiParameters(region: string): PublicEntry[] {
  return [
    ...[...AMAZON_LINUX, ...WINDOWS].map((path) => image(region, path)),
    ...ECS_FAMILIES.flatMap((family) => ecsFamily(region, family)),
    ...EKS_VERSIONS.flatMap((version) => EKS_FAMILIES.flatMap((family) => eksFamily(region, version, family))),
    ...BOTTLEROCKET_VARIANTS.flatMap((variant) =>
      ['x86_64', 'arm64'].flatMap((arch) => bottlerocket(region, variant, arch)),
    ),
  ];
}
