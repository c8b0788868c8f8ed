import type { CredentialService } from '@pcs/businesses';
import { asBusinessId, asMerchantId, Caller } from '@pcs/kernel';
import { CredentialController } from './credential.controller';

/**
 * The credentials' controller against its service: it asks in the caller's
 * tenant scope (a merchant's credential sees its own only) and shows dates as
 * ISO strings, never a secret.
 */
describe('CredentialController', () => {
  it('asks in the caller’s scope and shows each credential without its secret', async () => {
    const summariesOf = jest.fn().mockResolvedValue([
      {
        apiKey: 'pk_1',
        merchantId: 'm-1',
        createdAt: new Date('2026-11-01T00:00:00Z'),
        expiresAt: null,
        revokedAt: null,
        usable: true,
        lastUsedAt: new Date('2026-11-27T12:00:00Z'),
        previousSecretExpiresAt: new Date('2026-11-27T13:00:00Z'),
        previousSecretLastUsedAt: null,
        apiSecret: 'must-not-leave',
      },
    ]);
    const controller = new CredentialController({ summariesOf } as unknown as CredentialService);
    const merchantCaller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: asMerchantId('m-1') };
    const answer = await controller.list(merchantCaller);
    expect(summariesOf).toHaveBeenCalledWith({ businessId: 'b-1', merchantId: 'm-1' });
    expect(answer).toEqual([
      {
        apiKey: 'pk_1',
        merchantId: 'm-1',
        createdAt: '2026-11-01T00:00:00.000Z',
        expiresAt: null,
        revokedAt: null,
        usable: true,
        lastUsedAt: '2026-11-27T12:00:00.000Z',
        previousSecretExpiresAt: '2026-11-27T13:00:00.000Z',
        previousSecretLastUsedAt: null,
      },
    ]);
    expect(JSON.stringify(answer)).not.toContain('must-not-leave');
  });
});
