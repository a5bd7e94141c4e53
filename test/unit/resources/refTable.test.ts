// What Ref returns, for every type of the specification, and why: the rule that gives it is stated per type and
// checked against the value the type's provider produces on a create. AWS's user guide (its Return values pages,
// resources/documentedAttributes.json) decides where it says what Ref returns; the schema's cfnRefIdentifier (else
// its primaryIdentifier) decides where the page is silent, and where the page contradicts it in the words listed in
// PAGE_CONTRADICTS_SCHEMA below. Where the page shows a sample value, Ref has its format. The physical id is the Ref.
import { describe, expect, it } from 'vitest';
import {
  ID_FORMATS,
  NAME_NOT_IDENTITY,
  PHYSICAL_ID_FORMATS,
  REF_EXCEPTIONS,
  REF_IS_ARN,
  REF_IS_NAME,
  hasSeparateId,
  isScopedName,
  isArnName,
} from '../../../resources/generic.js';
import { PROVIDERS } from '../../../resources/registry.js';
import { knownTypes, resourceSpec } from '../../../resources/spec.js';
import { DOCUMENTED, refClaim, refSample, sampleFormat } from '../../helpers/documentedSamples.js';
import { provisionAlone } from '../../helpers/provisionAlone.js';

type Why =
  | 'the name, unique only within its parent (isScopedName)'
  | 'an attribute AWS documents as the Ref (REF_EXCEPTIONS)'
  | 'its own provider (resources/registry.ts)'
  | 'the ARN: its page says so, whatever the schema identifies it by (REF_IS_ARN)'
  | 'the ARN: the identifier is an ARN'
  | "an id in the format of its page's sample, though the schema's identifier is an ARN"
  | 'the name, in the form AWS shows (PHYSICAL_ID_FORMATS)'
  | 'a generated id: the name is not its identity (NAME_NOT_IDENTITY)'
  | 'the name: the identifier is the name property'
  | 'the name: its page says so, though the schema identifies it by an id (REF_IS_NAME)'
  | 'a service-generated id: the identifier is not the name property'
  | "a service-generated id in the service's format (ID_FORMATS)"
  | 'the identifier properties joined with | (compound identifier)'
  | 'a generated identifier';

/** Why a type's Ref is what it is: the first rule that applies, in the order the provider applies them. */
function whyOf(type: string): Why {
  const spec = resourceSpec(type)!;
  const ref = spec.refIdentifier;
  if (isScopedName(spec)) return 'the name, unique only within its parent (isScopedName)';
  if (REF_EXCEPTIONS[type]) return 'an attribute AWS documents as the Ref (REF_EXCEPTIONS)';
  if (REF_IS_ARN.has(type)) return 'the ARN: its page says so, whatever the schema identifies it by (REF_IS_ARN)';
  if (NAME_NOT_IDENTITY.has(type)) return 'a generated id: the name is not its identity (NAME_NOT_IDENTITY)';
  if (PHYSICAL_ID_FORMATS[type]) return 'the name, in the form AWS shows (PHYSICAL_ID_FORMATS)';
  if (type in PROVIDERS && !BACKEND_ALIKE.has(type)) return 'its own provider (resources/registry.ts)';
  if (
    ref.length === 1 &&
    isArnName(ref[0]) &&
    !spec.nameProperty &&
    spec.refSample &&
    !spec.refSample.startsWith('arn:')
  )
    return "an id in the format of its page's sample, though the schema's identifier is an ARN";
  if (ref.length === 1 && isArnName(ref[0])) return 'the ARN: the identifier is an ARN';
  if (ref.length === 1 && ref[0] === spec.nameProperty) return 'the name: the identifier is the name property';
  if (spec.nameProperty && REF_IS_NAME.has(type))
    return 'the name: its page says so, though the schema identifies it by an id (REF_IS_NAME)';
  if (spec.nameProperty && hasSeparateId(spec))
    return 'a service-generated id: the identifier is not the name property';
  if (ID_FORMATS[type]) return "a service-generated id in the service's format (ID_FORMATS)";
  if (ref.length > 1 || spec.nameProperty) return 'the identifier properties joined with | (compound identifier)';
  return 'a generated identifier';
}

/** Family providers whose identity is the generic rules' (a backend type simulated without --backend). */
const BACKEND_ALIKE = new Set(
  Object.keys(PROVIDERS).filter(
    (t) =>
      ![
        'AWS::CloudFormation::WaitConditionHandle',
        'AWS::CloudFormation::WaitCondition',
        'AWS::CloudFormation::Stack',
      ].includes(t) &&
      ![
        'AWS::CloudFormation::CustomResource',
        'AWS::SSM::Parameter',
        'AWS::Lambda::Version',
        'AWS::Lambda::Alias',
      ].includes(t),
  ),
);

const ARN = /^arn:aws:[a-z0-9-]+:/;

/** The shape each reason promises, for a resource created from empty properties (a compound id needs its parts). */
const CHECKS: Record<
  Why,
  (ref: string, name: string | undefined, attributes: Record<string, unknown>, type: string) => boolean
> = {
  'the name, unique only within its parent (isScopedName)': (ref, name) => ref === name,
  'an attribute AWS documents as the Ref (REF_EXCEPTIONS)': (ref, _n, attributes, type) =>
    ref === attributes[REF_EXCEPTIONS[type]!],
  'its own provider (resources/registry.ts)': (ref) => ref.length > 0,
  'the ARN: its page says so, whatever the schema identifies it by (REF_IS_ARN)': (ref) => ARN.test(ref),
  'the ARN: the identifier is an ARN': (ref) => ARN.test(ref),
  "an id in the format of its page's sample, though the schema's identifier is an ARN": (ref) => !ARN.test(ref),
  'the name, in the form AWS shows (PHYSICAL_ID_FORMATS)': (ref, name) => name !== undefined && ref.includes(name),
  'a generated id: the name is not its identity (NAME_NOT_IDENTITY)': (ref) => ref.length > 0,
  'the name: the identifier is the name property': (ref, name) => ref === name,
  'the name: its page says so, though the schema identifies it by an id (REF_IS_NAME)': (ref, name) => ref === name,
  'a service-generated id: the identifier is not the name property': (ref, name) =>
    ref.length > 0 && ref !== name && !ARN.test(ref),
  "a service-generated id in the service's format (ID_FORMATS)": (ref) => ref.length > 0 && !ref.includes('|'),
  'the identifier properties joined with | (compound identifier)': (ref) => ref.length > 0,
  'a generated identifier': (ref) => ref.length > 0,
};

/**
 * Types whose page's Ref sample shows a format cfn-local does not follow, and why (a sample that contradicts the
 * service's own format, or a value the template gives).
 */
const REF_SAMPLE_EXEMPT: Readonly<Record<string, string>> = {
  'AWS::CodeGuruReviewer::RepositoryAssociation':
    "the schema's ARN template (`association:`) over the sample's `association/`",
  'AWS::Oam::Link': "the schema's ARN template (`link/`) over the sample's `link:`",
  'AWS::Oam::Sink': "the schema's ARN template (`sink/`) over the sample, a link's ARN",
  'AWS::EC2::TransitGatewayMulticastDomainAssociation':
    "the sample is the multicast domain's id; the schema identifies an association by domain, attachment and subnet",
  'AWS::OpsWorks::UserProfile': "the sample is the user's IAM ARN, the IamUserArn property a template gives",
  'AWS::ServiceDiscovery::Instance': 'the sample is the InstanceId a template gives',
  'AWS::Route53::HostedZone': 'zones made in recent years have longer ids (`Z0…`) than the 14-character sample',
  'AWS::SSM::Parameter': 'CloudFormation names a parameter `CFN-<logical id>-<suffix>`; the sample is a made-up name',
};

/**
 * Types whose page's Ref text names another kind of value than the schema's identifier, which cfn-local follows
 * (the README lists these as unsettled).
 */
const GENERIC_NAME = 'the page\'s "returns the resource name" is its generic text; the schema identifies it by ARN';
const CONNECT_NAME =
  'the page says the name, but its example (`{ "Ref": "myQueueName" }`) is a logical id; the schema identifies it by ARN';
const ID_IS_ARN = "the page's id (or identifier) is the ARN the schema identifies it by";
const RELATED_ARN = 'the page names the ARN of a resource it belongs to; the schema identifies it otherwise';
export const PAGE_CONTRADICTS_SCHEMA: Readonly<Record<string, string>> = {
  'AWS::AppRunner::AutoScalingConfiguration': GENERIC_NAME,
  'AWS::AppRunner::ObservabilityConfiguration': GENERIC_NAME,
  'AWS::AppRunner::VpcConnector': GENERIC_NAME,
  'AWS::AppRunner::VpcIngressConnection': GENERIC_NAME,
  'AWS::CloudTrail::Channel': GENERIC_NAME,
  'AWS::CloudTrail::EventDataStore': GENERIC_NAME,
  'AWS::Forecast::Dataset': GENERIC_NAME,
  'AWS::Lambda::CodeSigningConfig': GENERIC_NAME,
  'AWS::Lambda::Url': GENERIC_NAME,
  'AWS::OSIS::Pipeline': GENERIC_NAME,
  'AWS::Personalize::Dataset': GENERIC_NAME,
  'AWS::Personalize::DatasetGroup': GENERIC_NAME,
  'AWS::Personalize::Schema': GENERIC_NAME,
  'AWS::Personalize::Solution': GENERIC_NAME,
  'AWS::Connect::ContactFlow': CONNECT_NAME,
  'AWS::Connect::ContactFlowModule': CONNECT_NAME,
  'AWS::Connect::EvaluationForm': CONNECT_NAME,
  'AWS::Connect::Prompt': CONNECT_NAME,
  'AWS::Connect::Queue': CONNECT_NAME,
  'AWS::Connect::QuickConnect': CONNECT_NAME,
  'AWS::Connect::RoutingProfile': CONNECT_NAME,
  'AWS::Connect::Rule': CONNECT_NAME,
  'AWS::Connect::TrafficDistributionGroup': CONNECT_NAME,
  'AWS::ConnectCampaigns::Campaign': CONNECT_NAME,
  'AWS::Connect::Instance': ID_IS_ARN,
  'AWS::FraudDetector::Detector': ID_IS_ARN,
  'AWS::FraudDetector::EntityType': ID_IS_ARN,
  'AWS::FraudDetector::EventType': ID_IS_ARN,
  'AWS::FraudDetector::Label': ID_IS_ARN,
  'AWS::FraudDetector::List': ID_IS_ARN,
  'AWS::FraudDetector::Outcome': ID_IS_ARN,
  'AWS::FraudDetector::Variable': ID_IS_ARN,
  'AWS::LicenseManager::Grant': ID_IS_ARN,
  'AWS::LicenseManager::License': ID_IS_ARN,
  'AWS::RAM::ResourceShare': ID_IS_ARN,
  'AWS::SystemsManagerSAP::Application': ID_IS_ARN,
  'AWS::ACMPCA::Certificate': 'the page says Ref "should not be used" and names the Arn attribute instead',
  'AWS::AppStream::ApplicationFleetAssociation': RELATED_ARN,
  'AWS::Detective::MemberInvitation': RELATED_ARN,
  'AWS::Detective::OrganizationAdmin': RELATED_ARN,
  'AWS::DevOpsGuru::ResourceCollection': RELATED_ARN,
  'AWS::MediaConnect::BridgeOutput': RELATED_ARN,
  'AWS::MediaConnect::BridgeSource': RELATED_ARN,
  'AWS::MediaConnect::FlowVpcInterface': RELATED_ARN,
  'AWS::OpsWorks::UserProfile': RELATED_ARN,
  'AWS::OpsWorksCM::Server': RELATED_ARN,
  'AWS::S3Outposts::BucketPolicy': RELATED_ARN,
  'AWS::SecretsManager::RotationSchedule': RELATED_ARN,
  'AWS::SQS::QueueInlinePolicy': RELATED_ARN,
  'AWS::VpcLattice::AuthPolicy': RELATED_ARN,
};

/** The name each type with a name property is given. */
const NAME = 'refs-name1';

const ROWS = knownTypes().map((type) => [type, whyOf(type)] as const);

describe('Ref of every type', () => {
  it('covers the whole specification', () => {
    expect(ROWS.length).toBeGreaterThan(1500);
  });

  it('states the reason for the types the user guide and the issue name', () => {
    expect(whyOf('AWS::S3Tables::TableBucket')).toBe('the ARN: the identifier is an ARN');
    expect(whyOf('AWS::S3Tables::Table')).toBe('the ARN: the identifier is an ARN');
    expect(whyOf('AWS::SecretsManager::Secret')).toBe(
      'the ARN: its page says so, whatever the schema identifies it by (REF_IS_ARN)',
    );
    expect(whyOf('AWS::ApiGateway::Stage')).toBe('the name, unique only within its parent (isScopedName)');
    expect(whyOf('AWS::Route53::RecordSet')).toBe('the name, unique only within its parent (isScopedName)');
    expect(whyOf('AWS::ApiGateway::ApiKey')).toBe('a service-generated id: the identifier is not the name property');
    expect(whyOf('AWS::Glue::Table')).toBe(
      'the name: its page says so, though the schema identifies it by an id (REF_IS_NAME)',
    );
  });

  it('every exemption names a type whose page disagrees', () => {
    for (const type of [...Object.keys(REF_SAMPLE_EXEMPT), ...Object.keys(PAGE_CONTRADICTS_SCHEMA)])
      expect(DOCUMENTED.types[type]?.ref, type).toBeDefined();
  });

  it.each(ROWS)('%s: Ref returns %s', async (type, why) => {
    const spec = resourceSpec(type)!;
    // a name unique within its parent is given as its identifier property (a stage's StageName)
    const nameProperty = isScopedName(spec) ? spec.refIdentifier[0] : spec.nameProperty;
    const made = await provisionAlone(type, nameProperty ? { [nameProperty]: NAME } : {});
    if (typeof made === 'string') {
      // a Lambda version or alias needs its function, a nested stack the engine: the refusal is AWS's
      expect(made).toMatch(/Function not found|Nested stack Res cannot be provisioned/);
      return;
    }
    const { ref, physicalId, attributes } = made;
    const name = nameProperty ? NAME : undefined;
    expect(CHECKS[why](ref, name, attributes, type), `${type} Ref ${ref}`).toBe(true);
    expect(physicalId, 'the physical id is the Ref').toBe(ref);
    const page = DOCUMENTED.types[type]?.ref;
    const sample = refSample(page);
    const format = sample && !REF_SAMPLE_EXEMPT[type] ? sampleFormat(sample) : undefined;
    if (format) expect(ref, `the page's sample ${sample}`).toMatch(format);
    const claim = refClaim(page);
    if (claim && !PAGE_CONTRADICTS_SCHEMA[type])
      expect(ARN.test(ref), `the page says Ref returns ${claim}: ${page}`).toBe(claim === 'an ARN');
  });
});
