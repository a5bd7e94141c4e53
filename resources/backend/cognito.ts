// Cognito in the backend: AWS::Cognito::UserPool and AWS::Cognito::UserPoolClient (what their create calls take).
import { family } from './family.js';
import type { BackendOps } from './provider.js';
import { strings } from './values.js';

const { sdk, client } = family('cognito', (m) => m.CognitoIdentityProviderClient);

const isTrue = (v: unknown) => v === true || v === 'true';

export const USER_POOL: BackendOps = {
  service: 'CognitoIdentityProvider',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const { UserPool } = await (
      await client(call)
    ).send(
      new m.CreateUserPoolCommand({
        PoolName: (p.UserPoolName as string | undefined) ?? call.name,
        Policies: p.Policies as never,
        AutoVerifiedAttributes: p.AutoVerifiedAttributes as never,
        UsernameAttributes: p.UsernameAttributes as never,
        AliasAttributes: p.AliasAttributes as never,
        MfaConfiguration: p.MfaConfiguration as never,
        Schema: p.Schema as never,
        UserPoolTags: p.UserPoolTags as never,
      }),
    );
    const id = UserPool!.Id!;
    return {
      physicalId: id,
      attributes: {
        UserPoolId: id,
        Arn: UserPool!.Arn,
        ProviderName: `cognito-idp.${call.req.region}.amazonaws.com/${id}`,
        ProviderURL: `https://cognito-idp.${call.req.region}.amazonaws.com/${id}`,
      },
    };
  },
  async delete(call) {
    const m = await sdk();
    await (await client(call)).send(new m.DeleteUserPoolCommand({ UserPoolId: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const { UserPool } = await (
      await client(call)
    ).send(new m.DescribeUserPoolCommand({ UserPoolId: call.physicalId }));
    return { UserPoolName: UserPool?.Name, MfaConfiguration: UserPool?.MfaConfiguration };
  },
};

export const USER_POOL_CLIENT: BackendOps = {
  service: 'CognitoIdentityProvider',
  async create(call) {
    const m = await sdk();
    const p = call.req.properties;
    const { UserPoolClient } = await (
      await client(call)
    ).send(
      new m.CreateUserPoolClientCommand({
        UserPoolId: String(p.UserPoolId),
        ClientName: (p.ClientName as string | undefined) ?? call.name,
        GenerateSecret: isTrue(p.GenerateSecret),
        ExplicitAuthFlows: p.ExplicitAuthFlows ? (strings(p.ExplicitAuthFlows) as never) : undefined,
        CallbackURLs: p.CallbackURLs ? strings(p.CallbackURLs) : undefined,
        AllowedOAuthFlows: p.AllowedOAuthFlows as never,
        AllowedOAuthScopes: p.AllowedOAuthScopes ? strings(p.AllowedOAuthScopes) : undefined,
      }),
    );
    const id = UserPoolClient!.ClientId!;
    return {
      physicalId: id,
      attributes: {
        ClientId: id,
        Name: UserPoolClient!.ClientName,
        ...(UserPoolClient!.ClientSecret ? { ClientSecret: UserPoolClient!.ClientSecret } : {}),
      },
    };
  },
  async delete(call) {
    const m = await sdk();
    const pool = String(
      call.world.get(call.req.type, call.physicalId)?.properties.UserPoolId ?? call.req.properties.UserPoolId,
    );
    await (await client(call)).send(new m.DeleteUserPoolClientCommand({ UserPoolId: pool, ClientId: call.physicalId }));
  },
  async read(call) {
    const m = await sdk();
    const { UserPoolClient } = await (
      await client(call)
    ).send(
      new m.DescribeUserPoolClientCommand({
        UserPoolId: String(call.req.properties.UserPoolId),
        ClientId: call.physicalId,
      }),
    );
    return { UserPoolId: UserPoolClient?.UserPoolId, ClientName: UserPoolClient?.ClientName };
  },
};
