// The AWS CLI registry examples of AWS's documentation (awscli/examples/cloudformation: register-type,
// describe-type-registration, list-types, describe-type, list-type-versions, set-type-default-version,
// deregister-type) replayed against cfn-local, the handler package uploaded to its S3 store first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { WIDGET_SCHEMA, handlerPackage, uploadPackage } from '../helpers/registry.js';
import { awsCliAvailable, awsCloudFormation, gate, json } from './clients.js';

const cli = gate('AWS CLI v2 registry examples', await awsCliAvailable());
const TYPE_NAME = 'My::Organization::ResourceName';
const SCHEMA = { ...WIDGET_SCHEMA, typeName: TYPE_NAME };
const TYPE_ARN = 'arn:aws:cloudformation:us-east-1:000000000000:type/resource/My-Organization-ResourceName';

describe.skipIf(cli.skip)(cli.title, () => {
  let server: TestServer;
  const aws = (...args: string[]) => awsCloudFormation(server.endpoint, args);

  beforeAll(async () => {
    server = await startServer();
    await uploadPackage(
      s3Client(server.endpoint),
      'bucket-name',
      'my-organization-resource_name.zip',
      handlerPackage(SCHEMA),
    );
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
  });

  it('register-type, wait type-registration-complete, describe-type-registration', async () => {
    const register = await aws(
      'register-type',
      ...['--type-name', TYPE_NAME, '--type', 'RESOURCE'],
      ...['--schema-handler-package', 's3://bucket-name/my-organization-resource_name.zip'],
    );
    const { RegistrationToken } = json<{ RegistrationToken: string }>(register);
    expect(RegistrationToken).toMatch(/^[0-9a-f-]{36}$/);
    const waited = await aws('wait', 'type-registration-complete', '--registration-token', RegistrationToken);
    expect(waited.code, waited.stderr).toBe(0);
    expect(json(await aws('describe-type-registration', '--registration-token', RegistrationToken))).toEqual({
      ProgressStatus: 'COMPLETE',
      Description: 'Deployment is currently in DEPLOY_STAGE of status COMPLETED; ',
      TypeArn: TYPE_ARN,
      TypeVersionArn: `${TYPE_ARN}/00000001`,
    });
  });

  it('list-types --visibility PRIVATE and describe-type show the registered type', async () => {
    const listed = json(await aws('list-types', '--visibility', 'PRIVATE', '--type', 'RESOURCE'));
    expect(listed.TypeSummaries).toEqual([
      expect.objectContaining({
        Type: 'RESOURCE',
        TypeName: TYPE_NAME,
        DefaultVersionId: '00000001',
        TypeArn: TYPE_ARN,
      }),
    ]);
    const described = json(await aws('describe-type', '--type', 'RESOURCE', '--type-name', TYPE_NAME));
    expect(described).toMatchObject({ Arn: `${TYPE_ARN}/00000001`, Visibility: 'PRIVATE', DeprecatedStatus: 'LIVE' });
    expect(JSON.parse(described.Schema)).toEqual(SCHEMA);
  });

  it('a second version: list-type-versions, set-type-default-version, deregister-type of the old one', async () => {
    const again = json(
      await aws(
        'register-type',
        ...['--type-name', TYPE_NAME, '--type', 'RESOURCE'],
        ...['--schema-handler-package', 's3://bucket-name/my-organization-resource_name.zip'],
      ),
    );
    expect(
      (await aws('wait', 'type-registration-complete', '--registration-token', again.RegistrationToken)).code,
    ).toBe(0);
    const versions = json(await aws('list-type-versions', '--type', 'RESOURCE', '--type-name', TYPE_NAME));
    expect(versions.TypeVersionSummaries.map((v: { VersionId: string }) => v.VersionId)).toEqual([
      '00000001',
      '00000002',
    ]);
    const set = await aws('set-type-default-version', '--arn', `${TYPE_ARN}/00000002`);
    expect(set.code, set.stderr).toBe(0);
    const dropped = await aws('deregister-type', '--arn', `${TYPE_ARN}/00000001`);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(json(await aws('describe-type', '--arn', TYPE_ARN)).DefaultVersionId).toBe('00000002');
  });
});
