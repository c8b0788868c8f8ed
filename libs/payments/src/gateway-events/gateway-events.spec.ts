import type { GatewayEvent, PaymentNotice } from '@pcs/gateways';
import { Transaction } from '@pcs/kernel';
import { Payin } from '../domain/payin';
import { anAttempt, anIntent, attemptsWorld, INTENT_ID, MERCHANT_ID, NOW } from '../../test/in-memory-ports.fixture';
import { GatewayEventLog } from '../payment-intent.repository';
import type { ProcessorRefunds } from '../refunds/processor-refunds.service';
import type { RefundsService } from '../refunds/refunds.service';
import { GatewayEventsService } from './gateway-events.service';
import { GatewayNotifications } from './gateway-notifications.service';

/**
 * What gateways report back, on the context's ports in memory: a verified callback applied once per
 * event id (a replay changes nothing), found by the gateway's reference or our id; a notification
 * naming a record of another merchant, another gateway, or of the wrong kind changes nothing. The
 * same over HTTP with signed callbacks: test/payment-attempts.e2e-spec.ts, test/mercado-pago.e2e-spec.ts.
 */
class MemoryEventLog extends GatewayEventLog {
  readonly seen = new Set<string>();
  record(_tx: Transaction, gateway: string, eventId: string): Promise<boolean> {
    const key = `${gateway}/${eventId}`;
    if (this.seen.has(key)) return Promise.resolve(false);
    this.seen.add(key);
    return Promise.resolve(true);
  }
}

function world() {
  const w = attemptsWorld();
  const intent = anIntent();
  intent.awaitPayerAtGateway(NOW);
  w.intents.put(intent);
  const attempt = anAttempt(intent, { transactionId: 'attempt-1' });
  attempt.bindGatewayReference('sbx-ref-1', null, NOW);
  w.payins.put(attempt);
  const log = new MemoryEventLog();
  const events = new GatewayEventsService(w.unitOfWork, w.intents, w.payins, log, w.outcomes);
  const settled: Array<{ record: string; gateway: string }> = [];
  /** What each step did, in order: our refunds settled from the list first, then the processor's own recorded. */
  const steps: string[] = [];
  const ours = { settledFromList: 0, recorded: 'replayed' };
  const refunds = {
    settleFromGateway: (record: Payin, gateway: string) => {
      settled.push({ record: record.id, gateway });
      return Promise.resolve('applied');
    },
    settleListed: (_merchantId: string, _gateway: string, payinId: string) => {
      steps.push(`ours of ${payinId}`);
      return Promise.resolve(ours.settledFromList);
    },
  } as unknown as RefundsService;
  const listed: string[] = [];
  const processorRefunds = {
    apply: (_merchantId: string, _gateway: string, payinId: string) => {
      listed.push(payinId);
      steps.push(`the processor's of ${payinId}`);
      return Promise.resolve(ours.recorded);
    },
  } as unknown as ProcessorRefunds;
  const notifications = new GatewayNotifications(w.unitOfWork, w.payins, events, refunds, processorRefunds);
  const event = (outcome: GatewayEvent['outcome'], eventId = 'evt-1'): GatewayEvent => ({
    gateway: 'SANDBOX',
    eventId,
    reference: 'sbx-ref-1',
    outcome,
  });
  const stored = () => ({ intent: w.intents.read(INTENT_ID)!.snapshot(), attempt: w.payins.read('attempt-1')!.snapshot() });
  return { ...w, events, notifications, event, stored, settled, listed, steps, ours };
}

describe('GatewayEventsService (on the ports, in memory)', () => {
  it('applies a callback found by the gateway’s reference once; its replay changes nothing', async () => {
    const { events, event, stored } = world();
    expect(await events.apply(event('APPROVED'))).toBe('applied');
    expect(stored().attempt).toMatchObject({ status: 'APPROVED', feeAmount: 3050 });
    expect(stored().intent.status).toBe('SUCCEEDED');
    const before = stored();
    expect(await events.apply(event('REJECTED'))).toBe('replayed');
    expect(stored()).toEqual(before);
  });

  it('lets a later event of another id meet the final attempt, which absorbs it', async () => {
    const { events, event, stored } = world();
    await events.apply(event('REJECTED', 'evt-1'));
    expect(await events.apply(event('APPROVED', 'evt-2'))).toBe('applied');
    expect(stored().attempt.status).toBe('REJECTED');
    expect(stored().intent.status).toBe('REQUIRES_PAYMENT_INSTRUMENT');
  });

  it('answers a reference it does not know as unknown', async () => {
    const { events } = world();
    expect(await events.apply({ gateway: 'SANDBOX', eventId: 'e', reference: 'nobody', outcome: 'APPROVED' })).toBe('unknown');
  });
});

describe('GatewayNotifications (on the ports, in memory)', () => {
  const charge = (payinId: string, eventId = 'n-1'): PaymentNotice => ({
    kind: 'CHARGE',
    payinId,
    event: { gateway: 'SANDBOX', eventId, reference: 'sbx-ref-1', outcome: 'APPROVED' },
  });

  it('applies news of the merchant’s attempt at that gateway, named by our id', async () => {
    const { notifications, stored } = world();
    expect(await notifications.apply(MERCHANT_ID, 'SANDBOX', charge('attempt-1'))).toBe('applied');
    expect(stored().attempt.status).toBe('APPROVED');
  });

  it('changes nothing for another merchant’s record, another gateway’s, an unknown id, or a refund’s id in a charge’s news', async () => {
    const { notifications, stored, payins, settled } = world();
    const before = stored();
    expect(await notifications.apply('another-merchant', 'SANDBOX', charge('attempt-1'))).toBe('unknown');
    expect(await notifications.apply(MERCHANT_ID, 'MERCADO_PAGO', charge('attempt-1'))).toBe('unknown');
    expect(await notifications.apply(MERCHANT_ID, 'SANDBOX', charge('no-such-attempt'))).toBe('unknown');
    expect(
      await notifications.apply(MERCHANT_ID, 'SANDBOX', { kind: 'REFUND', refundId: 'attempt-1', status: 'APPROVED', reference: 'r' }),
    ).toBe('unknown');
    expect(stored()).toEqual(before);
    expect(settled).toEqual([]);
    expect(payins.all()).toHaveLength(1);
  });

  it('settles news of one of our refunds as any gateway answer does, and leaves ignored or unknown kinds alone', async () => {
    const { notifications, payins, settled, intents } = world();
    const attempt = anAttempt(intents.read(INTENT_ID)!, { transactionId: 'refund-1' }).snapshot();
    payins.put(Payin.restore({ ...attempt, transactionType: 'REFUND', conceptCode: 'REFUND', paymentIntentInitiator: 'MERCHANT' }));
    expect(
      await notifications.apply(MERCHANT_ID, 'SANDBOX', { kind: 'REFUND', refundId: 'refund-1', status: 'APPROVED', reference: 'sbx-r-1' }),
    ).toBe('applied');
    expect(settled).toEqual([{ record: 'refund-1', gateway: 'SANDBOX' }]);
    expect(await notifications.apply(MERCHANT_ID, 'SANDBOX', { kind: 'IGNORED' })).toBe('ignored');
    expect(await notifications.apply(MERCHANT_ID, 'SANDBOX', { kind: 'UNKNOWN' })).toBe('unknown');
  });

  it('settles our refunds from a processor’s list first, then records its own; applied when either changed something', async () => {
    const { notifications, listed, steps, ours } = world();
    // Nothing of ours settled: the processor's refunds' answer is the answer.
    expect(await notifications.applyProcessorRefunds(MERCHANT_ID, 'SANDBOX', 'attempt-1', [])).toBe('replayed');
    expect(listed).toEqual(['attempt-1']);
    expect(steps).toEqual(['ours of attempt-1', "the processor's of attempt-1"]);
    // One of ours settled from the list (its notification lost): applied, though the processor's own were known.
    ours.settledFromList = 1;
    expect(await notifications.applyProcessorRefunds(MERCHANT_ID, 'SANDBOX', 'attempt-1', [])).toBe('applied');
    ours.settledFromList = 0;
    ours.recorded = 'applied';
    expect(await notifications.applyProcessorRefunds(MERCHANT_ID, 'SANDBOX', 'attempt-1', [])).toBe('applied');
  });
});
