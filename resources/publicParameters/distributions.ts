// The AMIs other publishers keep under /aws/service/: Canonical's Ubuntu (server, minimal, Pro, and the EKS node
// images), Debian's releases, and AWS Marketplace products, by the names their publishers document.
// https://documentation.ubuntu.com/aws/aws-how-to/instances/find-ubuntu-images/
// https://wiki.debian.org/Cloud/AmazonEC2Image
// https://docs.aws.amazon.com/marketplace/latest/buyerguide/buyer-finding-ami-ssm.html
import { amiId, EKS_VERSIONS, type PublicEntry } from './amis.js';

const ARCHES = ['amd64', 'arm64'];

/** Canonical changed the root volume from gp2 to gp3 with 23.04; 22.04 is published with both. */
const UBUNTU_RELEASES: [release: string, codename: string, volumes: string[]][] = [
  ['18.04', 'bionic', ['ebs-gp2']],
  ['20.04', 'focal', ['ebs-gp2']],
  ['22.04', 'jammy', ['ebs-gp2', 'ebs-gp3']],
  ['24.04', 'noble', ['ebs-gp3']],
];

function ubuntuServer(): string[] {
  return UBUNTU_RELEASES.flatMap(([release, codename, volumes]) =>
    ['server', 'server-minimal', 'pro-server'].flatMap((product) =>
      [release, codename].flatMap((name) =>
        ARCHES.flatMap((arch) =>
          volumes.map((volume) => `canonical/ubuntu/${product}/${name}/stable/current/${arch}/hvm/${volume}/ami-id`),
        ),
      ),
    ),
  );
}

/** EKS node images: one per Ubuntu release, Kubernetes version and architecture, plain and Pro. */
function ubuntuEks(): string[] {
  return UBUNTU_RELEASES.filter(([release]) => release >= '20.04').flatMap(([release, , volumes]) =>
    ['eks', 'eks-pro'].flatMap((product) =>
      EKS_VERSIONS.flatMap((k8s) =>
        ARCHES.map(
          (arch) => `canonical/ubuntu/${product}/${release}/${k8s}/stable/current/${arch}/hvm/${volumes[0]}/ami-id`,
        ),
      ),
    ),
  );
}

/** Debian publishes each release by number and by codename, the release images and the daily builds. */
const DEBIAN_RELEASES = [
  ['10', 'buster'],
  ['11', 'bullseye'],
  ['12', 'bookworm'],
  ['13', 'trixie'],
];
function debian(): string[] {
  return DEBIAN_RELEASES.flatMap((names) =>
    names.flatMap((name) =>
      ['release', 'daily'].flatMap((channel) => ARCHES.map((arch) => `debian/${channel}/${name}/latest/${arch}`)),
    ),
  );
}

const image = (region: string, path: string): PublicEntry => {
  const name = `/aws/service/${path}`;
  return { name, value: amiId(region, name), dataType: 'aws:ec2:image' };
};

/** Every Ubuntu and Debian image parameter of one region. */
export function distributionParameters(region: string): PublicEntry[] {
  return [...ubuntuServer(), ...ubuntuEks(), ...debian()].map((path) => image(region, path));
}

/**
 * `/aws/service/marketplace/prod-<product id>/<version>`: every AWS Marketplace AMI product publishes one per
 * version and `latest`. The products cannot be listed here, so any well-formed name reads as a stable AMI id,
 * and listing the path finds none (README: differences).
 */
const MARKETPLACE = /^\/aws\/service\/marketplace\/prod-[a-z0-9]{13}\/[A-Za-z0-9._-]{1,128}$/;

export function marketplaceParameter(region: string, name: string): PublicEntry | undefined {
  return MARKETPLACE.test(name) ? { name, value: amiId(region, name), dataType: 'aws:ec2:image' } : undefined;
}
