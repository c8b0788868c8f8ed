import type { RuntimeSettings } from '@pcs/config';
import type { ChargeOutcome, GatewayRegistry } from '@pcs/gateways';
import { Money, Transaction } from '@pcs/kernel';
import type { PricingService } from '@pcs/settlement';
import { PaymentIntent } from '../domain/payment-intent';
import { anAttempt, anIntent, INTENT_ID, MemoryIntents, MemoryPayins, MemoryUnitOfWork, NOW, TX } from '../../test/in-memory-ports.fixture';
import type { CardTestingGuard } from '../card-testing/card-testing.guard';
import { AttemptOutcome, AttemptOutcomes } from './attempt-outcomes';
import type { PaymentAttemptParties } from './payment-attempt-parties';

/**
 * The one set of rules for what an attempt's outcome does to its payin and its intent (a gateway's
 * callback, an off-session charge's answer, a lookup), on the context's ports in memory: an approval
 * fixes the merchant's price and whose account collected it, a rejection lets the payer try again, a
 * pending answer is asked about later, and a final payin absorbs whatever comes late. The same rules on
 * PostgreSQL with real gateways' callbacks: payment-attempts.service.int-spec.ts and the end-to-end specs.
 */
const FEE = { feeAmount: 3050, feeTaxAmount: 671, availableOn: new Date('2026-11-30T00:00:00Z'), liquidationSource: 'CALENDAR' as const };

function outcomesWith(options: { fundsFlow?: 'PLATFORM' | 'MERCHANT' } = {}) {
  const payins = new MemoryPayins();
  const intents = new MemoryIntents(payins);
  const intent = anIntent();
  intent.awaitPayerAtGateway(NOW);
  intents.put(intent);
  const attempt = anAttempt(intent);
  attempt.bindGatewayReference('sbx-1', null, NOW);
  payins.put(attempt);
  const priced: Array<{ received: Money; releasedOn?: Date }> = [];
  const pricing = {
    approvalTerms: (input: { received: Money; releasedOn?: Date }, tx: Transaction) => {
      expect(tx).toBe(TX);
      priced.push({ received: input.received, releasedOn: input.releasedOn });
      return Promise.resolve(input.releasedOn ? { ...FEE, availableOn: input.releasedOn, liquidationSource: 'PROCESSOR' } : FEE);
    },
  } as unknown as PricingService;
  const gateways = {
    get: () => ({ fundsFlowOf: () => Promise.resolve(options.fundsFlow ?? 'PLATFORM') }),
  } as unknown as GatewayRegistry;
  const taught: Array<{ charged?: ChargeOutcome; validated: boolean }> = [];
  const parties = {
    recordOnInstrument: (_tx: Transaction, _intent: PaymentIntent, learned: { charged?: ChargeOutcome; validated: boolean }) => {
      taught.push(learned);
      return Promise.resolve();
    },
  } as unknown as PaymentAttemptParties;
  const settings = { gateway: { reconcileAfterSeconds: 300 } } as unknown as RuntimeSettings;
  // What the card-testing guard (contract §30) is told: each decline, with the card the processor reported.
  const declined: { paymentIntentId: string; card: unknown }[] = [];
  const cardTesting = {
    declined: (_tx: Transaction, paymentIntentId: string, card: unknown) => {
      declined.push({ paymentIntentId, card });
      return Promise.resolve();
    },
  } as unknown as CardTestingGuard;
  const outcomes = new AttemptOutcomes(new MemoryUnitOfWork(), intents, payins, pricing, gateways, parties, settings, cardTesting);
  const apply = async (event: Partial<AttemptOutcome>) => {
    const changed = await outcomes.apply(TX, intents.read(INTENT_ID)!, payins.read('charge-1')!, {
      gateway: 'SANDBOX',
      eventId: 'e-1',
      reference: 'sbx-1',
      outcome: 'APPROVED',
      ...event,
    });
    return changed;
  };
  const stored = () => ({ intent: intents.read(INTENT_ID)!.snapshot(), payin: payins.read('charge-1')!.snapshot() });
  return { outcomes, intents, payins, apply, stored, priced, taught, declined };
}

describe('AttemptOutcomes (on the ports, in memory)', () => {
  it('approves: the payin with the merchant’s price fixed now, the intent SUCCEEDED with what it received, the instrument validated', async () => {
    const { stored, priced, taught, outcomes, intents, payins } = outcomesWith();
    // Applied to the rows as a flow holds them: the caller saves nothing itself.
    const intent = intents.read(INTENT_ID)!;
    const payin = payins.read('charge-1')!;
    expect(
      await outcomes.apply(TX, intent, payin, {
        gateway: 'SANDBOX',
        eventId: 'e-1',
        reference: 'sbx-1',
        outcome: 'APPROVED',
        maskedPan: '4111********1111',
      }),
    ).toBe(true);
    expect(priced).toEqual([{ received: Money.ofMinor(122000, intent.snapshot().currency), releasedOn: undefined }]);
    expect(stored().payin).toMatchObject({
      status: 'APPROVED',
      receivedAmount: 122000,
      feeAmount: 3050,
      feeTaxAmount: 671,
      liquidationDate: FEE.availableOn,
      fundsFlow: 'PLATFORM',
      maskedPan: '4111********1111',
    });
    expect(stored().intent).toMatchObject({
      status: 'SUCCEEDED',
      receivedAmount: 122000,
      externalChargeId: 'sbx-1',
      lastPaymentError: null,
    });
    expect(taught).toEqual([{ charged: undefined, validated: true }]);
  });

  it('keeps whose account collected it, as the gateway says at the approval, and the processor’s own release date', async () => {
    const { apply, stored } = outcomesWith({ fundsFlow: 'MERCHANT' });
    const releasedOn = new Date('2026-12-15T00:00:00Z');
    await apply({ outcome: 'APPROVED', releasedOn });
    expect(stored().payin).toMatchObject({ fundsFlow: 'MERCHANT', liquidationDate: releasedOn, liquidationSource: 'PROCESSOR' });
  });

  it('rejects: the payin REJECTED and the intent back to REQUIRES_PAYMENT_INSTRUMENT with the reason, no price asked', async () => {
    const { apply, stored, priced, declined } = outcomesWith();
    const card = { bin: '450995', last4: '3704', expiry: '11/30' };
    expect(await apply({ outcome: 'REJECTED', error: 'insufficient funds', card })).toBe(true);
    // Counted once by the card-testing guard, with the card (a repeat of a final payin is not: the next spec).
    expect(declined).toEqual([{ paymentIntentId: INTENT_ID, card }]);
    expect(stored().payin).toMatchObject({ status: 'REJECTED', externalStatus: 'insufficient funds', receivedAmount: 0, feeAmount: 0 });
    expect(stored().intent).toMatchObject({
      status: 'REQUIRES_PAYMENT_INSTRUMENT',
      lastPaymentError: 'insufficient funds',
      receivedAmount: 0,
    });
    expect(priced).toEqual([]);
  });

  it('waits on a pending answer: the payin SCHEDULED and asked about after the reconciliation delay, the intent PROCESSING', async () => {
    const { apply, stored } = outcomesWith();
    const before = Date.now();
    expect(await apply({ outcome: 'PENDING' })).toBe(true);
    const { payin, intent } = stored();
    expect(payin.status).toBe('SCHEDULED');
    expect(payin.reconcileAt!.getTime()).toBeGreaterThanOrEqual(before + 300_000);
    expect(intent.status).toBe('PROCESSING');
    // The money arrives later: the approval still applies.
    expect(await apply({ outcome: 'APPROVED', eventId: 'e-2' })).toBe(true);
    expect(stored().intent.status).toBe('SUCCEEDED');
  });

  it('absorbs a late or repeated outcome on a final payin: nothing changes, nothing is saved, no price asked', async () => {
    const { apply, stored, priced, intents, declined } = outcomesWith();
    await apply({ outcome: 'REJECTED', error: 'declined' });
    expect(declined).toHaveLength(1);
    const versionBefore = intents.rows.get(INTENT_ID)!.version;
    expect(await apply({ outcome: 'APPROVED', eventId: 'late' })).toBe(false);
    expect(await apply({ outcome: 'REJECTED', eventId: 'again' })).toBe(false);
    expect(stored().payin.status).toBe('REJECTED');
    expect(stored().intent.status).toBe('REQUIRES_PAYMENT_INSTRUMENT');
    expect(intents.rows.get(INTENT_ID)!.version).toBe(versionBefore);
    expect(priced).toEqual([]);
    expect(declined).toHaveLength(1);
  });

  it('applies an off-session charge’s answer once, binding the gateway’s reference; a repeat or another intent’s payin changes nothing', async () => {
    const { outcomes, payins, intents, stored, taught } = outcomesWith();
    // An off-session attempt, committed without a reference yet (the answer brings it).
    const intent = anIntent({ confirm: true, paymentInstrumentId: 'pi-1' as never });
    intent.startOffSessionCharge(NOW);
    intents.rows.clear();
    intents.put(intent);
    payins.rows.clear();
    payins.put(anAttempt(intent, { initiator: 'MERCHANT' }));
    const answer: ChargeOutcome = { status: 'APPROVED', reference: 'sbx-charge-9', instrumentToken: 'tok-1' };
    await outcomes.applyChargeAnswer('charge-1', 'SANDBOX', answer, INTENT_ID);
    expect(stored().payin).toMatchObject({ status: 'APPROVED', externalId: 'sbx-charge-9' });
    expect(stored().intent.status).toBe('SUCCEEDED');
    expect(taught).toEqual([{ charged: answer, validated: true }]);
    await outcomes.applyChargeAnswer('charge-1', 'SANDBOX', { status: 'REJECTED', reference: 'sbx-other' }, INTENT_ID);
    expect(stored().payin).toMatchObject({ status: 'APPROVED', externalId: 'sbx-charge-9' });
    // Named with another intent than its own: not applied.
    payins.put(anAttempt(intent, { transactionId: 'charge-2', initiator: 'MERCHANT' }));
    await outcomes.applyChargeAnswer('charge-2', 'SANDBOX', answer, 'another-intent' as never);
    expect(payins.read('charge-2')!.snapshot()).toMatchObject({ status: 'PENDING', externalId: null });
  });
});
