import { asBusinessId, asMerchantId, Caller, DomainError } from '@pcs/kernel';
import type { CardTestingBlock, CardTestingGuard } from '@pcs/payments';
import { CardTestingController } from './card-testing.controller';

const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');
const settings = {
  enabled: true,
  maxDeclinesPerCard: 3,
  maxDeclinesPerAddress: 10,
  maxAttemptsPerAddress: 30,
  windowMinutes: 60,
  blockMinutes: 60,
};

const block = (until: Date): CardTestingBlock => ({
  blockId: '5f0c9a1e-2b3d-4c5e-8f7a-9b0c1d2e3f4a',
  merchantId,
  scope: 'CARD',
  subjectKey: 'f'.repeat(64),
  reason: 'DECLINES_PER_CARD',
  count: 3,
  hint: 'card 0123456789ab',
  page: 'SANDBOX',
  saleId: null,
  startedAt: new Date('2026-11-29T12:00:00.000Z'),
  until,
});

/**
 * The card-testing guard's blocks (contract §30) as the payins API lists them: never a block's
 * key, whether each still lasts, the guard's settings; another tenant's merchant is the guard's
 * 404. test/card-testing.e2e-spec.ts lists them over HTTP after an attack.
 */
describe('CardTestingController', () => {
  it('lists the blocks without their keys, each with whether it still lasts, and the settings', async () => {
    const lasting = block(new Date(Date.now() + 60_000));
    const over = { ...block(new Date(Date.now() - 60_000)), blockId: '6a1d0b2f-3c4e-4d5f-9a8b-0c1d2e3f4a5b' };
    const guard = { blocksOf: jest.fn().mockResolvedValue({ blocks: [lasting, over], settings }) };
    const answer = await new CardTestingController(guard as unknown as CardTestingGuard).blocks(caller, merchantId);
    expect(guard.blocksOf).toHaveBeenCalledWith(caller, merchantId);
    expect(answer.settings).toEqual(settings);
    expect(answer.blocks.map((b) => [b.blockId, b.active, b.until])).toEqual([
      [lasting.blockId, true, lasting.until.toISOString()],
      [over.blockId, false, over.until.toISOString()],
    ]);
    expect(JSON.stringify(answer)).not.toContain('f'.repeat(64));
  });

  it('answers another tenant’s merchant with the guard’s 404', async () => {
    const guard = { blocksOf: jest.fn().mockRejectedValue(new DomainError('MERCHANT_NOT_FOUND')) };
    await expect(new CardTestingController(guard as unknown as CardTestingGuard).blocks(caller, merchantId)).rejects.toMatchObject({
      code: 'MERCHANT_NOT_FOUND',
    });
  });
});
