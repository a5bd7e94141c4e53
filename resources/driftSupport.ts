// The resource types AWS can check for drift, as its user guide lists them ("Resources that support
// import and drift detection operations", resource-import-supported-resources.md): the revisions of 2021-08-24 and
// 2023-08-25 united (the later one dropped some types the earlier had, AWS::Lambda::Function among them, which the AWS
// CLI's own drift examples show checked), plus AWS::SSM::Parameter, which the current guide lists. Names are without
// their `AWS::` prefix, space-separated.

const DRIFT = `
ACMPCA::Certificate ACMPCA::CertificateAuthority ACMPCA::CertificateAuthorityActivation ACMPCA::Permission
APS::RuleGroupsNamespace APS::Workspace AccessAnalyzer::Analyzer Amplify::App Amplify::Branch Amplify::Domain
AmplifyUIBuilder::Component AmplifyUIBuilder::Theme ApiGateway::Account ApiGateway::ApiKey
ApiGateway::Authorizer ApiGateway::BasePathMapping ApiGateway::Deployment ApiGateway::DocumentationPart
ApiGateway::Method ApiGateway::Model ApiGateway::RequestValidator ApiGateway::Resource ApiGateway::RestApi
ApiGateway::Stage ApiGateway::UsagePlan ApiGatewayV2::VpcLink AppConfig::Extension
AppConfig::ExtensionAssociation AppFlow::ConnectorProfile AppFlow::Flow AppIntegrations::DataIntegration
AppIntegrations::EventIntegration AppMesh::GatewayRoute AppMesh::VirtualGateway
AppRunner::ObservabilityConfiguration AppRunner::Service AppRunner::VpcConnector AppStream::AppBlock
AppStream::Application AppStream::ApplicationEntitlementAssociation AppStream::ApplicationFleetAssociation
AppStream::DirectoryConfig AppStream::Entitlement AppStream::ImageBuilder AppSync::DomainName
AppSync::DomainNameApiAssociation ApplicationInsights::Application Athena::DataCatalog Athena::NamedQuery
Athena::PreparedStatement Athena::WorkGroup AuditManager::Assessment AutoScaling::AutoScalingGroup
AutoScaling::LaunchConfiguration AutoScaling::LifecycleHook AutoScaling::ScalingPolicy
AutoScaling::ScheduledAction AutoScaling::WarmPool Backup::Framework Backup::ReportPlan
Batch::ComputeEnvironment Batch::JobQueue Batch::SchedulingPolicy BillingConductor::BillingGroup
BillingConductor::CustomLineItem BillingConductor::PricingPlan BillingConductor::PricingRule
Budgets::BudgetsAction CE::AnomalyMonitor CE::AnomalySubscription CE::CostCategory CUR::ReportDefinition
Cassandra::Keyspace Cassandra::Table CertificateManager::Account Chatbot::SlackChannelConfiguration
CloudFormation::HookDefaultVersion CloudFormation::HookTypeConfig CloudFormation::HookVersion
CloudFormation::ModuleDefaultVersion CloudFormation::ModuleVersion CloudFormation::PublicTypeVersion
CloudFormation::Publisher CloudFormation::ResourceDefaultVersion CloudFormation::ResourceVersion
CloudFormation::Stack CloudFormation::StackSet CloudFormation::TypeActivation CloudFront::CachePolicy
CloudFront::CloudFrontOriginAccessIdentity CloudFront::Distribution CloudFront::Function CloudFront::KeyGroup
CloudFront::OriginRequestPolicy CloudFront::PublicKey CloudFront::RealtimeLogConfig
CloudFront::ResponseHeadersPolicy CloudTrail::EventDataStore CloudTrail::Trail CloudWatch::Alarm
CloudWatch::CompositeAlarm CloudWatch::MetricStream CodeArtifact::Domain CodeArtifact::Repository
CodeGuruProfiler::ProfilingGroup CodeGuruReviewer::RepositoryAssociation CodeStarConnections::Connection
CodeStarNotifications::NotificationRule Config::AggregationAuthorization Config::ConfigurationAggregator
Config::ConformancePack Config::OrganizationConformancePack Config::StoredQuery Connect::ContactFlow
Connect::ContactFlowModule Connect::HoursOfOperation Connect::PhoneNumber Connect::QuickConnect
Connect::TaskTemplate Connect::User Connect::UserHierarchyGroup ConnectCampaigns::Campaign
CustomerProfiles::Domain CustomerProfiles::Integration CustomerProfiles::ObjectType DataBrew::Dataset
DataBrew::Job DataBrew::Project DataBrew::Recipe DataBrew::Ruleset DataBrew::Schedule DataSync::Agent
DataSync::LocationEFS DataSync::LocationFSxLustre DataSync::LocationFSxONTAP DataSync::LocationFSxOpenZFS
DataSync::LocationFSxWindows DataSync::LocationHDFS DataSync::LocationNFS DataSync::LocationObjectStorage
DataSync::LocationS3 DataSync::LocationSMB DataSync::Task Detective::Graph Detective::MemberInvitation
DevOpsGuru::NotificationChannel DevOpsGuru::ResourceCollection DeviceFarm::DevicePool
DeviceFarm::InstanceProfile DeviceFarm::NetworkProfile DeviceFarm::Project DeviceFarm::TestGridProject
DeviceFarm::VPCEConfiguration DynamoDB::GlobalTable DynamoDB::Table EC2::CapacityReservation
EC2::CapacityReservationFleet EC2::CarrierGateway EC2::CustomerGateway EC2::DHCPOptions EC2::EC2Fleet EC2::EIP
EC2::EgressOnlyInternetGateway EC2::EnclaveCertificateIamRoleAssociation EC2::FlowLog
EC2::GatewayRouteTableAssociation EC2::Host EC2::IPAM EC2::IPAMAllocation EC2::IPAMPool EC2::IPAMScope
EC2::Instance EC2::InternetGateway EC2::KeyPair EC2::LocalGatewayRoute
EC2::LocalGatewayRouteTableVPCAssociation EC2::NatGateway EC2::NetworkAcl EC2::NetworkInsightsAccessScope
EC2::NetworkInsightsAccessScopeAnalysis EC2::NetworkInsightsAnalysis EC2::NetworkInsightsPath
EC2::NetworkInterface EC2::PlacementGroup EC2::PrefixList EC2::RouteTable EC2::SecurityGroup EC2::SpotFleet
EC2::Subnet EC2::SubnetNetworkAclAssociation EC2::TransitGateway EC2::TransitGatewayAttachment
EC2::TransitGatewayConnect EC2::TransitGatewayMulticastDomain EC2::TransitGatewayMulticastDomainAssociation
EC2::TransitGatewayMulticastGroupMember EC2::TransitGatewayMulticastGroupSource
EC2::TransitGatewayPeeringAttachment EC2::TransitGatewayVpcAttachment EC2::VPC EC2::VPCDHCPOptionsAssociation
EC2::VPCPeeringConnection EC2::Volume ECR::PublicRepository ECR::PullThroughCacheRule ECR::RegistryPolicy
ECR::ReplicationConfiguration ECS::CapacityProvider ECS::Cluster ECS::ClusterCapacityProviderAssociations
ECS::PrimaryTaskSet ECS::Service ECS::TaskDefinition ECS::TaskSet EFS::AccessPoint EFS::FileSystem
EFS::MountTarget EKS::AddOn EKS::Addon EKS::FargateProfile EKS::IdentityProviderConfig EMR::Studio
EMR::StudioSessionMapping EMRContainers::Studio EMRContainers::StudioSessionMapping
EMRContainers::VirtualCluster EMRServerless::Application ElastiCache::GlobalReplicationGroup ElastiCache::User
ElastiCache::UserGroup ElasticBeanstalk::Application ElasticLoadBalancing::LoadBalancer
ElasticLoadBalancingV2::Listener ElasticLoadBalancingV2::ListenerRule ElasticLoadBalancingV2::LoadBalancer
EventSchemas::RegistryPolicy Events::ApiDestination Events::Archive Events::Connection Events::Endpoint
Events::Rule Evidently::Experiment Evidently::Launch Evidently::Project Evidently::Segment
FIS::ExperimentTemplate FMS::NotificationChannel FMS::Policy FinSpace::Environment Forecast::Dataset
Forecast::DatasetGroup FraudDetector::Detector FraudDetector::EntityType FraudDetector::EventType
FraudDetector::Label FraudDetector::Outcome FraudDetector::Variable GameLift::Alias GameLift::Fleet
GameLift::GameServerGroup GlobalAccelerator::Accelerator GlobalAccelerator::EndpointGroup
GlobalAccelerator::Listener Glue::Registry Glue::Schema Glue::SchemaVersion Glue::SchemaVersionMetadata
GreengrassV2::ComponentVersion GroundStation::Config GroundStation::DataflowEndpointGroup
GroundStation::MissionProfile HealthLake::FHIRDatastore IAM::Group IAM::InstanceProfile IAM::ManagedPolicy
IAM::OIDCProvider IAM::Role IAM::SAMLProvider IAM::ServerCertificate IAM::User IAM::VirtualMFADevice
IVS::Channel IVS::PlaybackKeyPair IVS::RecordingConfiguration IVS::StreamKey ImageBuilder::Component
ImageBuilder::ContainerRecipe ImageBuilder::DistributionConfiguration ImageBuilder::Image
ImageBuilder::ImagePipeline ImageBuilder::ImageRecipe ImageBuilder::InfrastructureConfiguration
Inspector::AssessmentTarget Inspector::AssessmentTemplate Inspector::ResourceGroup InspectorV2::Filter
IoT::AccountAuditConfiguration IoT::Authorizer IoT::CACertificate IoT::Certificate IoT::CustomMetric
IoT::Dimension IoT::DomainConfiguration IoT::FleetMetric IoT::JobTemplate IoT::Logging IoT::MitigationAction
IoT::ProvisioningTemplate IoT::ResourceSpecificLogging IoT::RoleAlias IoT::ScheduledAudit IoT::SecurityProfile
IoT::Thing IoT::TopicRule IoT::TopicRuleDestination IoTAnalytics::Channel IoTAnalytics::Dataset
IoTAnalytics::Datastore IoTAnalytics::Pipeline IoTCoreDeviceAdvisor::SuiteDefinition IoTEvents::AlarmModel
IoTEvents::DetectorModel IoTEvents::Input IoTFleetHub::Application IoTSiteWise::AccessPolicy
IoTSiteWise::Asset IoTSiteWise::AssetModel IoTSiteWise::Dashboard IoTSiteWise::Gateway IoTSiteWise::Portal
IoTSiteWise::Project IoTTwinMaker::ComponentType IoTTwinMaker::Entity IoTTwinMaker::Scene
IoTTwinMaker::Workspace IoTWireless::Destination IoTWireless::DeviceProfile IoTWireless::FuotaTask
IoTWireless::MulticastGroup IoTWireless::NetworkAnalyzerConfiguration IoTWireless::PartnerAccount
IoTWireless::ServiceProfile IoTWireless::TaskDefinition IoTWireless::WirelessDevice
IoTWireless::WirelessGateway KMS::Key KMS::ReplicaKey Kendra::DataSource Kendra::Faq Kendra::Index
Kinesis::Stream KinesisAnalyticsV2::Application KinesisFirehose::DeliveryStream KinesisVideo::SignalingChannel
KinesisVideo::Stream LakeFormation::DataCellsFilter LakeFormation::PrincipalPermissions LakeFormation::Tag
LakeFormation::TagAssociation Lambda::Alias Lambda::CodeSigningConfig Lambda::Function Lambda::Permission
Lambda::Url Lambda::Version Lex::Bot Lex::BotAlias Lex::BotVersion Lex::ResourcePolicy LicenseManager::Grant
LicenseManager::License Lightsail::Alarm Lightsail::Bucket Lightsail::Certificate Lightsail::Container
Lightsail::Database Lightsail::Disk Lightsail::Distribution Lightsail::Instance Lightsail::LoadBalancer
Lightsail::LoadBalancerTlsCertificate Lightsail::StaticIp Location::GeofenceCollection Location::Map
Location::PlaceIndex Location::RouteCalculator Location::Tracker Location::TrackerConsumer Logs::LogGroup
Logs::MetricFilter Logs::QueryDefinition Logs::ResourcePolicy Logs::SubscriptionFilter
LookoutEquipment::InferenceScheduler LookoutMetrics::Alert LookoutMetrics::AnomalyDetector
LookoutVision::Project MSK::BatchScramSecret MSK::Cluster MSK::Configuration MSK::ServerlessCluster
MWAA::Environment Macie::CustomDataIdentifier Macie::FindingsFilter Macie::Session MediaConnect::Flow
MediaConnect::FlowEntitlement MediaConnect::FlowOutput MediaConnect::FlowSource MediaConnect::FlowVpcInterface
MediaPackage::Asset MediaPackage::Channel MediaPackage::OriginEndpoint MediaPackage::PackagingConfiguration
MediaPackage::PackagingGroup MediaTailor::PlaybackConfiguration MemoryDB::ACL MemoryDB::Cluster
MemoryDB::ParameterGroup MemoryDB::SubnetGroup MemoryDB::User NetworkFirewall::Firewall
NetworkFirewall::FirewallPolicy NetworkFirewall::LoggingConfiguration NetworkFirewall::RuleGroup
NetworkManager::ConnectAttachment NetworkManager::ConnectPeer NetworkManager::CoreNetwork
NetworkManager::CustomerGatewayAssociation NetworkManager::Device NetworkManager::GlobalNetwork
NetworkManager::Link NetworkManager::LinkAssociation NetworkManager::Site
NetworkManager::SiteToSiteVpnAttachment NetworkManager::TransitGatewayRegistration
NetworkManager::VpcAttachment NimbleStudio::LaunchProfile NimbleStudio::StreamingImage NimbleStudio::Studio
NimbleStudio::StudioComponent OpenSearchService::Domain Panorama::ApplicationInstance Panorama::Package
Panorama::PackageVersion Personalize::Dataset Personalize::DatasetGroup Personalize::Schema
Personalize::Solution Pinpoint::InAppTemplate QLDB::Stream QuickSight::Analysis QuickSight::Dashboard
QuickSight::DataSet QuickSight::DataSource QuickSight::Template QuickSight::Theme RDS::DBCluster
RDS::DBClusterParameterGroup RDS::DBInstance RDS::DBParameterGroup RDS::DBProxy RDS::DBProxyEndpoint
RDS::DBProxyTargetGroup RDS::DBSubnetGroup RDS::EventSubscription RDS::GlobalCluster RDS::OptionGroup
RUM::AppMonitor Redshift::Cluster Redshift::EndpointAccess Redshift::EndpointAuthorization
Redshift::EventSubscription Redshift::ScheduledAction RedshiftServerless::Namespace
RedshiftServerless::Workgroup RefactorSpaces::Application RefactorSpaces::Environment RefactorSpaces::Route
RefactorSpaces::Service Rekognition::Collection Rekognition::Project Rekognition::StreamProcessor
ResilienceHub::App ResilienceHub::ResiliencyPolicy ResourceGroups::Group RoboMaker::Fleet RoboMaker::Robot
RoboMaker::RobotApplication RoboMaker::RobotApplicationVersion RoboMaker::SimulationApplication
RoboMaker::SimulationApplicationVersion RolesAnywhere::CRL RolesAnywhere::Profile RolesAnywhere::TrustAnchor
Route53::CidrCollection Route53::DNSSEC Route53::HealthCheck Route53::HostedZone Route53::KeySigningKey
Route53RecoveryControl::Cluster Route53RecoveryControl::ControlPanel Route53RecoveryControl::RoutingControl
Route53RecoveryControl::SafetyRule Route53RecoveryReadiness::Cell Route53RecoveryReadiness::ReadinessCheck
Route53RecoveryReadiness::RecoveryGroup Route53RecoveryReadiness::ResourceSet
Route53Resolver::FirewallDomainList Route53Resolver::FirewallRuleGroup
Route53Resolver::FirewallRuleGroupAssociation Route53Resolver::ResolverConfig
Route53Resolver::ResolverDNSSECConfig Route53Resolver::ResolverQueryLoggingConfig
Route53Resolver::ResolverQueryLoggingConfigAssociation Route53Resolver::ResolverRule
Route53Resolver::ResolverRuleAssociation S3::AccessPoint S3::Bucket S3::MultiRegionAccessPoint S3::StorageLens
S3ObjectLambda::AccessPoint S3ObjectLambda::AccessPointPolicy S3Outposts::AccessPoint S3Outposts::Bucket
S3Outposts::BucketPolicy S3Outposts::Endpoint SES::ConfigurationSet SES::ConfigurationSetEventDestination
SES::ContactList SES::DedicatedIpPool SES::EmailIdentity SES::Template SNS::Topic SQS::Queue SSM::Association
SSM::Parameter SSM::ResourceDataSync SSMContacts::Contact SSMContacts::ContactChannel
SSMIncidents::ReplicationSet SSMIncidents::ResponsePlan SSO::Assignment
SSO::InstanceAccessControlAttributeConfiguration SSO::PermissionSet SageMaker::App SageMaker::AppImageConfig
SageMaker::DataQualityJobDefinition SageMaker::Device SageMaker::DeviceFleet SageMaker::Domain
SageMaker::FeatureGroup SageMaker::Image SageMaker::ImageVersion SageMaker::ModelBiasJobDefinition
SageMaker::ModelExplainabilityJobDefinition SageMaker::ModelPackage SageMaker::ModelPackageGroup
SageMaker::ModelQualityJobDefinition SageMaker::MonitoringSchedule SageMaker::Pipeline SageMaker::Project
SageMaker::UserProfile Scheduler::Schedule SecretsManager::ResourcePolicy SecretsManager::RotationSchedule
ServiceCatalog::CloudFormationProvisionedProduct ServiceCatalog::ServiceAction
ServiceCatalog::ServiceActionAssociation ServiceCatalogAppRegistry::Application
ServiceCatalogAppRegistry::AttributeGroup ServiceCatalogAppRegistry::AttributeGroupAssociation
ServiceCatalogAppRegistry::ResourceAssociation Signer::ProfilePermission Signer::SigningProfile
StepFunctions::Activity StepFunctions::StateMachine Synthetics::Canary Synthetics::Group Timestream::Database
Timestream::ScheduledQuery Transfer::Access Transfer::Workflow VoiceID::Domain WAFv2::IPSet
WAFv2::LoggingConfiguration WAFv2::RegexPatternSet WAFv2::RuleGroup WAFv2::WebACL WAFv2::WebACLAssociation
Wisdom::Assistant Wisdom::AssistantAssociation Wisdom::KnowledgeBase WorkSpaces::ConnectionAlias
Workspaces::ConnectionAlias XRay::Group XRay::SamplingRule
`;

const setOf = (names: string) =>
  new Set(
    names
      .split(/\s+/)
      .filter(Boolean)
      .map((name) => `AWS::${name}`),
  );

/** The types DetectStackDrift checks; the others are NOT_CHECKED. */
export const DRIFT_CHECKED_TYPES: ReadonlySet<string> = setOf(DRIFT);
