// Ref of an IAM access key is the access key id, as AWS returns it.
import { expect, it } from 'vitest';
import { newIdentity, refValue, seededRandom } from '../../../resources/generic.js';

it('AWS::IAM::AccessKey is identified by an AKIA access key id', () => {
  const ctx = { account: '123456789012', region: 'us-east-1', partition: 'aws' };
  const { physicalId } = newIdentity({
    type: 'AWS::IAM::AccessKey',
    logicalId: 'Key',
    stackName: 's',
    properties: { UserName: 'u' },
    ctx,
    random: seededRandom(1),
  });
  expect(physicalId).toMatch(/^AKIA[A-Z0-9]{16}$/);
  expect(refValue({ type: 'AWS::IAM::AccessKey', physicalId })).toBe(physicalId);
});
