import { TestClock } from '@pcs/billing';
import type { TestClocksService } from '@pcs/billing';
import { asBusinessId, asMerchantId, Caller } from '@pcs/kernel';
import { TestClockController } from './test-clock.controller';

/**
 * The test clocks' controller against its service: times read as instants, the Idempotency-Key's operation id
 * handed over, each answer the clock as the API shows it. test/subscriptions.e2e-spec.ts runs the routes over HTTP.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');
const now = new Date('2027-01-10T15:00:00Z');

describe('TestClockController', () => {
  it('creates, advances and deletes with the times read as instants', async () => {
    const clock = TestClock.create({ testClockId: 'c-1', businessId: caller.businessId, merchantId, frozenTime: now, createdAt: now });
    const service = {
      create: jest.fn().mockResolvedValue(clock),
      get: jest.fn().mockResolvedValue(clock),
      advance: jest.fn().mockResolvedValue(clock),
      delete: jest.fn().mockResolvedValue(clock),
    };
    const controller = new TestClockController(service as unknown as TestClocksService);
    expect(await controller.create(caller, { merchantId, frozenTime: '2027-01-10T15:00:00Z' }, 'op-2')).toMatchObject({
      testClockId: 'c-1',
      frozenTime: '2027-01-10T15:00:00.000Z',
      status: 'READY',
    });
    expect(service.create).toHaveBeenCalledWith(caller, merchantId, now, 'op-2');
    await controller.advance(caller, 'c-1', { to: '2027-02-10T15:00:00Z' });
    expect(service.advance).toHaveBeenCalledWith(caller, 'c-1', new Date('2027-02-10T15:00:00Z'));
    await controller.delete(caller, 'c-1');
    expect(service.delete).toHaveBeenCalledWith(caller, 'c-1');
  });
});
