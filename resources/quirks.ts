// AWS behaviours that belong to no single provider, as tables.
//
// NAME_SCOPES: where a name must be unique. Most names are unique per account and region, but IAM is a global
// service (a role named `app` made by a stack in us-east-1 blocks a stack creating `app` in eu-west-1: the classic
// multi-region collision), and S3 bucket names are global too (across accounts as well; only the account's own
// regions are checked here, see docs/simulated-account.md).

export type NameScope = 'account';

export const NAME_SCOPES: Readonly<Partial<Record<string, NameScope>>> = {
  'AWS::IAM::Role': 'account',
  'AWS::IAM::User': 'account',
  'AWS::IAM::Group': 'account',
  'AWS::IAM::InstanceProfile': 'account',
  'AWS::IAM::ManagedPolicy': 'account',
  'AWS::IAM::OIDCProvider': 'account',
  'AWS::IAM::SAMLProvider': 'account',
  'AWS::IAM::ServerCertificate': 'account',
  'AWS::S3::Bucket': 'account',
};
