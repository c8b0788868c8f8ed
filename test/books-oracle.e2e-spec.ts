import { RuntimeSettings } from '@pcs/config';
import { DisputeReports } from '@pcs/disputes';
import { addDays, asMerchantId, localDateOf, MerchantId } from '@pcs/kernel';
import { ReconciliationRunsService } from '@pcs/processor-reports';
import { PayoutBatchesService, PayoutsService, PricingService } from '@pcs/settlement';
import { clientFor, createTenant, DLocalStandIn, MercadoPagoStandIn, SignedClient } from '@pcs/testing';
import fc from 'fast-check';
import * as crypto from 'node:crypto';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
type Processor = 'SANDBOX' | 'MERCADO_PAGO' | 'DLOCAL';
type Flow = 'PLATFORM' | 'MERCHANT';
type Currency = 'UYU' | 'USD';
/** How a processor's news reaches us: at once, never (lost), twice, or held to be sent later, in another order. */
type Delivery = 'send' | 'drop' | 'twice' | 'hold';

const BROU = 'dc53087a-2434-475e-bdcb-ea34a941e862';
const VAT_BP = 2200;
/** Our prices here (basis points, no fixed fee, available at approval): the model's fees come from these. */
const PRICES: Record<Processor, { method: string; type: string; bp: number }> = {
  SANDBOX: { method: 'OCA', type: 'CREDIT_CARD', bp: 300 },
  MERCADO_PAGO: { method: 'MERCADO_PAGO', type: 'WALLETS', bp: 599 },
  DLOCAL: { method: 'VISA', type: 'CREDIT_CARD', bp: 449 },
};
/** §8's rounding of a rate of a positive amount (half away from zero). */
const rate = (minor: number, bp: number) => Math.round((minor * bp) / 10_000);

/**
 * The oracle of contract §28: the books equal the processors' money. Random sequences of what happens to a merchant's money —
 * payments approved at the sandbox, Mercado Pago and dLocal in both funds flows, with and without installments; our refunds,
 * total and partial; manual refunds pending, confirmed at the processor and settled elsewhere; refunds and chargebacks made at the
 * processors, with their notifications lost, repeated and out of order; disputes opened, changed, won and lost; reconciliation
 * runs; payouts requested, exported in bank files, paid, failed, canceled and returned — are driven against the stand-ins, which
 * keep the processors' own accounts (`heldFor`), and the sandbox's own sessions. After every command, for the merchant and each
 * currency:
 *
 * - the balance the API shows (pending + available) is the sum of its transactions;
 * - pending + available + in transit + paid out = what the processors hold for the business from the merchant's PLATFORM-flow
 *   payments, less our fees (and their tax), less the fees its MERCHANT-flow payments owe — whenever every news of the
 *   processors has reached us (a notification lost or held is news the books may not know yet: from then until the next
 *   reconciliation, only the other invariants are checked);
 * - nothing of MERCHANT-flow money enters the balance;
 * - every payment intent's refundedAmount = what its processor refunded + our refunds pending + manual ones settled elsewhere;
 * - every bank file holds payouts of one currency;
 * - every event happened once.
 *
 * Each sequence ends with every held notification sent and a reconciliation run, and then the books must equal the processors';
 * then, as a day ends, payouts of every currency and their bank file.
 * A failure shrinks to a short sequence and prints its seed and path: `PBT_SEED`, `PBT_PATH` and `PBT_COMMANDS` (the counterexample's
 * `replayPath`) replay it, `PBT_RUNS` widens the search.
 */
describe('the books equal the processors’ money (contract §28: the oracle)', () => {
  let bed: Testbed;
  const mp = new MercadoPagoStandIn();
  const dl = new DLocalStandIn();
  let publicBase: string;

  beforeAll(async () => {
    await mp.start();
    await dl.start();
    bed = await testbed({
      reachable: true,
      gateway: {
        processorApis: { MERCADO_PAGO: { url: mp.url, timeoutMs: 4000 }, DLOCAL: { url: dl.url, timeoutMs: 4000 } },
        reconcileAfterSeconds: 600,
      },
      // Payouts wait for the bank file and the bank's answer (the commands below give both); a changed account is not held.
      settlement: { payoutRail: 'BANK_FILE', accountHoldHours: 0 },
    });
    publicBase = bed.app.get(RuntimeSettings).publicBaseUrl;
    // Mercado Pago's promotion: 3 interest-free installments at 7.5 % (the seller pays), 6 with the payer's interest.
    mp.interestFreeUpTo = 3;
    mp.financingRates = { 3: 7.5 };
    mp.installmentRates = { 1: 0, 3: 0, 6: 35.48 };
  });
  afterAll(async () => {
    await mp.rejectOpen();
    await dl.rejectOpen();
    await bed.close();
    await mp.stop();
    await dl.stop();
  });

  interface Shop {
    readonly merchantId: MerchantId;
    readonly businessId: string;
    readonly client: SignedClient;
    readonly payerId: string;
    readonly flows: Record<'MERCADO_PAGO' | 'DLOCAL', Flow>;
    readonly token: string;
    readonly login: string;
  }
  interface Payment {
    readonly processor: Processor;
    readonly currency: Currency;
    readonly flow: Flow;
    readonly intentId: string;
    readonly amount: number;
    /** The processor's id of the payment (Mercado Pago's number, dLocal's id); null at the sandbox. */
    readonly paymentId: string | null;
    /** The processor's case, once a dispute is opened. */
    dispute: { reference: string; disputeId: string | null; amount: number; status: 'OPEN' | 'WON' | 'LOST' } | null;
  }
  /** A payment named by its place among those to pick from, or the one last made or acted on. */
  type Target = number | 'last';
  interface Model {
    readonly shop: Shop;
    readonly payments: Payment[];
    readonly payouts: { payoutId: string; currency: Currency }[];
    /** News lost that no reconciliation has found yet: the books may not know it. */
    unheard: number;
    /** News held at the processors, to be sent later (latest first). */
    held: number;
    /** Our fees: each payment's (and its tax), each PLATFORM dispute's (the processor's dispute fee, as priced). */
    fees: { currency: Currency; amount: number }[];
    /** Days the dLocal lookups have run (each reconciliation is the next day's daily run). */
    days: number;
    /** Which settlement account number each currency is paid to (changed after a bank's return). */
    readonly accountSuffix: Record<Currency, number>;
    /** The payment last made or acted on: what `#last` names. */
    last?: Payment;
  }
  interface Real {
    readonly bed: Testbed;
  }

  const today = () => localDateOf(new Date(), 'America/Montevideo');
  const wire = (minor: number) => minor / 100;

  /** A merchant of its own for one sequence: its Mercado Pago and dLocal accounts in the sequence's flows, prices, a payer, accounts. */
  async function openShop(flows: Shop['flows']): Promise<Shop> {
    const tenant = await createTenant(bed.app);
    const merchantId = asMerchantId(tenant.merchants[0].merchantId);
    const client = clientFor(bed.app, tenant.merchants[0]);
    const token = `TEST-${crypto.randomInt(1e9, 1e10)}-oracle-${merchantId}`;
    const secret = `oracle-secret-${crypto.randomUUID()}`;
    mp.account(token, secret);
    mp.webhook(token, `${publicBase}/gateways/mercado-pago/notifications/${merchantId}`);
    const login = `oracle-${crypto.randomUUID()}`;
    dl.merchant(login, 'oracle-trans-key-0001', 'oracle-secret-key-0001');
    const ok = (answer: { status: number; body: Json }) => expect([answer.status, answer.body.errorId]).toEqual([200, undefined]);
    ok(
      await client.put(`/merchant/${merchantId}/gateway-account/mercado-pago`, {
        accessToken: token,
        webhookSecret: secret,
        fundsFlow: flows.MERCADO_PAGO,
      }),
    );
    ok(
      await client.put(`/merchant/${merchantId}/gateway-account/dlocal`, {
        xLogin: login,
        xTransKey: 'oracle-trans-key-0001',
        secretKey: 'oracle-secret-key-0001',
        paymentMethods: ['VISA'],
        fundsFlow: flows.DLOCAL,
      }),
    );
    ok(await client.put(`/merchant/${merchantId}/configuration`, { installments: { URY: { maxInstallments: 6, interestFreeUpTo: 3 } } }));
    const relationships = (await client.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Json[];
    for (const price of Object.values(PRICES)) {
      const relationship = relationships.find(
        (r) =>
          r.countryProcessor.paymentMethod.paymentMethodName === price.method &&
          r.countryProcessor.paymentInstrumentType.paymentInstrumentTypeName === price.type,
      )!;
      await bed.app.get(PricingService).set(merchantId, relationship.merchantCountryProcessorId as string, {
        percentage: price.bp / 100,
        settlementDelayDays: 0,
      });
    }
    for (const currency of ['UYU', 'USD'] as const)
      ok(await client.put(`/merchant/${merchantId}/settlement-account/${currency}`, accountOf(0)));
    const payer = await client.post('/payer', {
      firstName: 'Ora',
      lastName: 'Culo',
      email: 'oraculo@example.uy',
      documentType: 'IDENTITY_DOCUMENT',
      document: '1.234.567-2',
    });
    return { merchantId, businessId: tenant.business.businessId, client, payerId: payer.body.payerId as string, flows, token, login };
  }
  const accountOf = (suffix: number) => ({ bankId: BROU, accountNumber: `0012345670000${suffix % 10}`, accountType: 'SAVINGS' });

  /** News of a processor, delivered as `delivery` says; lost or held news is news the books do not know yet. */
  async function deliver(model: Model, delivery: Delivery, act: () => Promise<unknown>): Promise<void> {
    const mode = delivery === 'twice' ? 'send' : delivery;
    mp.notifications = { mode, delayMs: 0, repeat: delivery === 'twice' ? 2 : 1 };
    dl.notifications = { mode, delayMs: 0, repeat: delivery === 'twice' ? 2 : 1 };
    try {
      await act();
    } finally {
      mp.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
      dl.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
    }
    if (delivery === 'drop') model.unheard += 1;
    if (delivery === 'hold') model.held += 1;
  }

  // ----- the processors' accounts: what the stand-ins (and the sandbox's own sessions) hold for the business -----

  /** What the processors hold from the merchant's PLATFORM payments, less our fees, less what its MERCHANT payments owe, by currency. */
  async function expectedBooks(model: Model): Promise<Map<Currency, number>> {
    const { shop } = model;
    const books = new Map<Currency, number>([
      ['UYU', 0],
      ['USD', 0],
    ]);
    const add = (currency: string, minor: number) => books.set(currency as Currency, (books.get(currency as Currency) ?? 0) + minor);
    for (const fee of model.fees) add(fee.currency, -fee.amount);
    if (shop.flows.MERCADO_PAGO === 'PLATFORM') for (const [c, held] of mp.heldFor(shop.token)) add(c, held);
    if (shop.flows.DLOCAL === 'PLATFORM') for (const [c, held] of dl.heldFor(shop.login)) add(c, held);
    for (const [c, held] of await sandboxHeld(model)) add(c, held);
    return books;
  }

  /**
   * What the sandbox (our own processor, always PLATFORM) holds: its approved charge and refund sessions of the merchant's
   * payments, less what its disputes take (decided by the commands below), at most what the payer was not refunded.
   */
  async function sandboxHeld(model: Model): Promise<Map<string, number>> {
    // The sandbox's sessions of the merchant's payments and refunds (its references are our records' external ids).
    const rows = await bed.dataSource.query<{ payment_intent_id: string; kind: string; currency: string; amount: string }[]>(
      `SELECT p.payment_intent_id, s.kind, s.currency, s.amount FROM sandbox_gateway_session s
         JOIN payin p ON p.external_id = s.reference
        WHERE p.merchant_id = $1 AND s.status = 'APPROVED'`,
      [model.shop.merchantId],
    );
    const held = new Map<string, number>();
    for (const payment of model.payments.filter((p) => p.processor === 'SANDBOX')) {
      const own = rows.filter((r) => r.payment_intent_id === payment.intentId);
      const gross = own.filter((r) => r.kind !== 'REFUND').reduce((sum, r) => sum + Number(r.amount), 0);
      const refunded = own.filter((r) => r.kind === 'REFUND').reduce((sum, r) => sum + Number(r.amount), 0);
      const taken =
        payment.dispute && payment.dispute.status !== 'WON' ? Math.min(payment.dispute.amount, Math.max(0, gross - refunded)) : 0;
      held.set(payment.currency, (held.get(payment.currency) ?? 0) + gross - refunded - taken);
    }
    return held;
  }

  /** What each processor refunded of a payment, minor units. */
  async function refundedThere(payment: Payment): Promise<number> {
    if (payment.processor === 'MERCADO_PAGO')
      return mp.payments
        .get(Number(payment.paymentId))!
        .refunds.filter((r) => r.status === 'approved')
        .reduce((sum, r) => sum + Math.round(r.amount * 100), 0);
    if (payment.processor === 'DLOCAL')
      return dl.payments
        .get(payment.paymentId!)!
        .refunds.filter((r) => r.status === 'SUCCESS')
        .reduce((sum, r) => sum + Math.round(r.amount * 100), 0);
    const [row] = await bed.dataSource.query<{ refunded: string }[]>(
      `SELECT coalesce(sum(s.amount), 0) AS refunded FROM sandbox_gateway_session s JOIN payin p ON p.external_id = s.reference
        WHERE p.payment_intent_id = $1 AND p.transaction_type = 'REFUND' AND s.kind = 'REFUND' AND s.status = 'APPROVED'`,
      [payment.intentId],
    );
    return Number(row.refunded);
  }

  // ----- the invariants -----

  async function checkInvariants(model: Model, strict: boolean): Promise<void> {
    const { shop } = model;
    // pending + available + in transit, as the API shows them, read between two equal sums of the ledger (nothing moves here
    // on its own: the rail waits for the commands, but a notification sent twice may still be landing).
    const ledger = async () =>
      bed.dataSource.query<{ currency: string; net: string }[]>(
        `SELECT currency, sum(net) AS net FROM balance_transaction WHERE merchant_id = $1 GROUP BY currency`,
        [shop.merchantId],
      );
    let balances: Json[] = [];
    let sums: { currency: string; net: string }[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      sums = await ledger();
      balances = (await shop.client.get(`/merchant/${shop.merchantId}/balance`)).body.balances as Json[];
      if (JSON.stringify(await ledger()) === JSON.stringify(sums)) break;
    }
    // The balance the API shows is the sum of its transactions, in each currency.
    for (const b of balances)
      expect([b.currency, Math.round((b.pending + b.available) * 100)]).toEqual([
        b.currency,
        Number(sums.find((s) => s.currency === b.currency)?.net ?? 0),
      ]);
    const paid = await bed.dataSource.query<{ currency: string; amount: string }[]>(
      `SELECT currency, sum(amount) AS amount FROM payout WHERE merchant_id = $1 AND status = 'PAID' GROUP BY currency`,
      [shop.merchantId],
    );
    const books = new Map<Currency, number>();
    for (const currency of ['UYU', 'USD'] as const) {
      const b = balances.find((x) => x.currency === currency) ?? { pending: 0, available: 0, inTransit: 0 };
      const paidOut = Number(paid.find((p) => p.currency === currency)?.amount ?? 0);
      books.set(currency, Math.round((b.pending + b.available + b.inTransit) * 100) + paidOut);
    }
    if (strict) expect(Object.fromEntries(books)).toEqual(Object.fromEntries(await expectedBooks(model)));

    // MERCHANT-flow money never enters the balance: its payins book a FEE only, its refunds and disputes nothing.
    const leaked = await bed.dataSource.query(
      `SELECT bt.type, bt.source_id FROM balance_transaction bt
        WHERE bt.merchant_id = $1 AND (
          (bt.type <> 'FEE' AND EXISTS (SELECT 1 FROM payin p WHERE p.transaction_id = bt.source_id AND p.funds_flow = 'MERCHANT'))
          OR EXISTS (SELECT 1 FROM dispute d WHERE d.dispute_id = bt.source_id AND d.funds_flow = 'MERCHANT'))`,
      [shop.merchantId],
    );
    expect(leaked).toEqual([]);

    // refundedAmount: what the processor refunded, our refunds pending, manual ones settled elsewhere (contract §28).
    if (strict) {
      const intents = await bed.dataSource.query<{ payment_intent_id: string; refunded_amount: string; ours: string }[]>(
        `SELECT i.payment_intent_id, i.refunded_amount,
                (SELECT coalesce(sum(r.amount), 0) FROM payin r WHERE r.payment_intent_id = i.payment_intent_id AND r.transaction_type = 'REFUND'
                    AND (r.status IN ('PENDING', 'SCHEDULED') OR (r.status = 'APPROVED' AND r.refunded_elsewhere))) AS ours
           FROM payment_intent i WHERE i.merchant_id = $1`,
        [shop.merchantId],
      );
      for (const payment of model.payments) {
        const row = intents.find((i) => i.payment_intent_id === payment.intentId)!;
        expect({ intent: payment.intentId, refunded: Number(row.refunded_amount) }).toEqual({
          intent: payment.intentId,
          refunded: (await refundedThere(payment)) + Number(row.ours),
        });
      }
    }

    // Every bank file holds payouts of one currency.
    const mixed = await bed.dataSource.query(
      `SELECT batch_id FROM payout WHERE merchant_id = $1 AND batch_id IS NOT NULL GROUP BY batch_id HAVING count(DISTINCT currency) > 1`,
      [shop.merchantId],
    );
    expect(mixed).toEqual([]);

    // Every event happened once: a refund's created once and its outcome at most once, a payment's success at most once, a
    // dispute's creation once, each payout transition once.
    const repeated = await bed.dataSource.query(
      `SELECT type, subject, count(*)::int AS n FROM (
         SELECT e.type, coalesce(e.payload::jsonb #>> '{data,object,transactionId}', e.payload::jsonb #>> '{data,object,disputeId}',
                                 e.payload::jsonb #>> '{data,object,payoutId}', e.subject_id::text) AS subject
           FROM event e WHERE e.merchant_id = $1
            AND e.type IN ('refund.created', 'refund.succeeded', 'refund.failed', 'payment_intent.succeeded', 'dispute.created',
                           'dispute.won', 'dispute.lost', 'payout.created', 'payout.paid', 'payout.failed', 'payout.canceled', 'payout.returned')
       ) t GROUP BY type, subject HAVING count(*) > 1`,
      [shop.merchantId],
    );
    expect(repeated).toEqual([]);
  }

  // ----- the commands -----

  type Command = fc.AsyncCommand<Model, Real>;
  /** A command as fast-check runs it: always applicable (what it acts on is picked among what exists when it runs). */
  const command = (name: string, run: (model: Model) => Promise<void>): Command => ({
    check: () => true,
    run: async (model) => {
      await run(model);
      await checkInvariants(model, model.unheard === 0 && model.held === 0);
    },
    toString: () => name,
  });
  const pick = <T>(items: readonly T[], index: number): T | undefined => (items.length === 0 ? undefined : items[index % items.length]);
  /** The payments at Mercado Pago and dLocal (where processors' own news happen), in order. */
  const atProcessors = (model: Model) => model.payments.filter((p) => p.processor !== 'SANDBOX');
  /**
   * A payment to act on, those at Mercado Pago and dLocal twice as likely as the sandbox's; a small
   * index names the same payment here as in the processors' own commands (`atProcessors`), so that
   * our operations and theirs meet on one payment often.
   */
  const pickPayment = (model: Model, target: Target): Payment | undefined => {
    const payment = target === 'last' ? (model.last ?? model.payments[0]) : pick([...atProcessors(model), ...model.payments], target);
    if (payment) model.last = payment;
    return payment;
  };
  /** A payment at Mercado Pago or dLocal, for their own news: the last one acted on when it is one of theirs. */
  const pickAtProcessor = (model: Model, target: Target): Payment | undefined => {
    const there = atProcessors(model);
    const payment = target === 'last' ? (model.last && there.includes(model.last) ? model.last : there[0]) : pick(there, target);
    if (payment) model.last = payment;
    return payment;
  };
  const refundableOf = async (model: Model, payment: Payment) =>
    Math.round((await model.shop.client.get(`/payment-intent/${payment.intentId}`)).body.refundableAmount * 100);

  /** A payment of `amount` (minor units) approved at `processor`, in `installments` where it takes them. */
  const collect = (processor: Processor, currency: Currency, amount: number, installments: number) =>
    command(`collect ${processor} ${currency} ${amount} in ${installments}`, async (model) => {
      const { shop } = model;
      const price = PRICES[processor];
      const flow: Flow = processor === 'SANDBOX' ? 'PLATFORM' : shop.flows[processor];
      let intentId: string;
      let paymentId: string | null = null;
      if (processor === 'SANDBOX') {
        const created = await shop.client.post('/payment-intent', {
          currency,
          amount: wire(amount),
          payinType: 'DEFAULT',
          externalReference: `oracle-${crypto.randomUUID()}`,
          payerId: shop.payerId,
          offSession: true,
          invoiceNumber: 1,
          country: 'URY',
          paymentInstrumentData: { paymentMethodName: price.method },
          confirm: true,
        });
        if (created.status === 400 && created.body.errorId === 'Payins:AMOUNT_BELOW_MINIMUM') return;
        expect([created.status, created.body.status]).toEqual([200, 'SUCCEEDED']);
        intentId = created.body.paymentIntent.paymentIntentId as string;
      } else {
        const created = await shop.client.post('/payment-intent', {
          currency,
          amount: wire(amount),
          payinType: 'DEFAULT',
          offSession: false,
          country: 'URY',
          externalReference: `oracle-${crypto.randomUUID()}`,
          invoiceNumber: 1,
          payerId: shop.payerId,
        });
        expect(created.status).toBe(200);
        intentId = created.body.paymentIntent.paymentIntentId as string;
        const methods = (await shop.client.get(`/payment-intent/${intentId}/payment-methods`)).body
          .paymentIntentAvailablePaymentMethods as Json[];
        const method = methods.find(
          (m) => m.paymentMethod.paymentMethodName === price.method && m.paymentInstrumentType.paymentInstrumentTypeName === price.type,
        )!;
        const started = await shop.client.post(`/payment-intent/${intentId}/initialize`, { countryProcessorId: method.countryProcessorId });
        expect([started.status, started.body.errorId]).toEqual([200, undefined]);
        if (processor === 'MERCADO_PAGO')
          paymentId = String((await mp.decide(started.body.gatewayReferenceId, 'approve', installments)).id);
        else {
          paymentId = started.body.gatewayReferenceId as string;
          await dl.decide(paymentId, 'pay', installments);
        }
        expect((await shop.client.get(`/payment-intent/${intentId}`)).body.paymentIntentStatus).toBe('SUCCEEDED');
      }
      const fee = rate(amount, price.bp);
      const payment: Payment = { processor, currency, flow, intentId, amount, paymentId, dispute: null };
      model.payments.push(payment);
      model.last = payment;
      model.fees.push({ currency, amount: fee + rate(fee, VAT_BP) });
    });

  /**
   * A subscription's first period charged by the scheduler, moved by a test clock (contract §31): its payment is
   * then the books' as any sandbox collection's (refunded, disputed, paid out by the commands that follow).
   */
  const subscribe = (currency: Currency, amount: number) =>
    command(`subscribe SANDBOX ${currency} ${amount}`, async (model) => {
      const { shop } = model;
      const price = PRICES.SANDBOX;
      const instrument = await shop.client.post('/payment-instrument', {
        payerId: shop.payerId,
        paymentMethodName: price.method,
        country: 'URY',
      });
      expect(instrument.status).toBe(200);
      const clock = await shop.client.post('/test-clock', { merchantId: shop.merchantId, frozenTime: '2027-01-01T12:00:00Z' });
      expect(clock.status).toBe(200);
      const made = await shop.client.post('/subscription', {
        merchantId: shop.merchantId,
        payerId: shop.payerId,
        paymentInstrumentId: instrument.body.paymentInstrumentId,
        amount: wire(amount),
        currency,
        interval: 'MONTH',
        intervalCount: 1,
        description: 'Oracle membership',
        testClockId: clock.body.testClockId,
      });
      if (made.status === 400 && made.body.errorId === 'Payins:AMOUNT_BELOW_MINIMUM') return;
      expect(made.status).toBe(200);
      const moved = await shop.client.post(`/test-clock/${clock.body.testClockId}/advance`, { to: '2027-01-01T13:00:00Z' });
      expect(moved.status).toBe(200);
      const invoices = (await shop.client.get(`/invoice?subscriptionId=${made.body.subscriptionId}`)).body as { results: Json[] }[];
      const [invoice] = invoices[0].results;
      expect([invoice.status, invoice.attemptCount]).toEqual(['PAID', 1]);
      const fee = rate(amount, price.bp);
      const payment: Payment = {
        processor: 'SANDBOX',
        currency,
        flow: 'PLATFORM',
        intentId: invoice.paymentIntentId as string,
        amount,
        paymentId: null,
        dispute: null,
      };
      model.payments.push(payment);
      model.last = payment;
      model.fees.push({ currency, amount: fee + rate(fee, VAT_BP) });
    });

  /** Our refund through the API: a share of what is refundable, or (no amount) all of it. */
  const apiRefund = (target: Target, perMille: number | null) =>
    command(`refund #${target} ${perMille === null ? 'all' : `${perMille}‰`}`, async (model) => {
      const payment = pickPayment(model, target);
      if (!payment) return;
      const refundable = await refundableOf(model, payment);
      const body = perMille === null ? {} : { requestedRefundAmount: wire(Math.max(1, Math.floor((refundable * perMille) / 1000))) };
      const answer = await model.shop.client.post(`/payment-intent/${payment.intentId}/refund`, body);
      expect([200, 409, 400]).toContain(answer.status);
      if (answer.status !== 200)
        expect(['Payins:REFUND_AMOUNT_EXCEEDS_AVAILABLE', 'Payins:PAYMENT_INTENT_INVALID_STATE']).toContain(answer.body.errorId);
    });

  /** A manual refund (operation 23): reserved pending, the pending one confirmed, or confirmed at once. */
  const manualRefund = (target: Target, perMille: number, step: 'pending' | 'confirm-pending' | 'confirmed') =>
    command(`manual refund #${target} ${perMille}‰ ${step}`, async (model) => {
      const payment = pickPayment(model, target);
      if (!payment) return;
      const refundable = await refundableOf(model, payment);
      const amount = wire(Math.max(1, Math.floor((refundable * perMille) / 1000)));
      const answer = await model.shop.client.post(`/payment-intent/${payment.intentId}/manual-refund`, {
        status: step === 'pending' ? 'MANUAL_REFUND_PENDING' : 'MANUAL_REFUND_CONFIRMED',
        ...(step === 'confirm-pending' ? {} : { requestedRefundAmount: amount }),
      });
      expect([200, 409, 400]).toContain(answer.status);
    });

  /** A refund made at the processor itself (its panel, dashboard): a share of what it still holds of the payment. */
  const processorRefund = (target: Target, perMille: number, delivery: Delivery) =>
    command(`processor refund #${target} ${perMille}‰ (${delivery})`, async (model) => {
      const payment = pickAtProcessor(model, target);
      if (!payment) return;
      // What the processor still lets be refunded: dLocal counts its refunds pending too.
      const pendingThere =
        payment.processor === 'DLOCAL'
          ? dl.payments
              .get(payment.paymentId!)!
              .refunds.filter((r) => r.status === 'PENDING')
              .reduce((sum, r) => sum + Math.round(r.amount * 100), 0)
          : 0;
      const left = payment.amount - (await refundedThere(payment)) - pendingThere;
      if (left <= 0) return;
      if (payment.processor === 'MERCADO_PAGO' && mp.payments.get(Number(payment.paymentId))!.status !== 'approved') return;
      const amount = Math.max(1, Math.floor((left * perMille) / 1000));
      await deliver(model, delivery, () =>
        payment.processor === 'MERCADO_PAGO'
          ? mp.refundAtProcessor(Number(payment.paymentId), wire(amount))
          : dl.refundAtProcessor(payment.paymentId!, wire(amount)),
      );
    });

  /** The next refunds of ours at dLocal stay pending there, then end as dLocal decides (`settleDLocalRefund`). */
  const dlocalRefundsPending = () =>
    command('dLocal keeps our next refund pending', async () => {
      dl.refundStatus = 'PENDING';
    });
  const settleDLocalRefund = (index: number, success: boolean, delivery: Delivery) =>
    command(`dLocal ends pending refund #${index} ${success ? 'SUCCESS' : 'REJECTED'} (${delivery})`, async (model) => {
      dl.refundStatus = 'SUCCESS';
      const pending = [...dl.payments.values()]
        .filter((p) => model.payments.some((m) => m.paymentId === p.id))
        .flatMap((p) => p.refunds.filter((r) => r.status === 'PENDING'));
      const refund = pick(pending, index);
      if (!refund) return;
      await deliver(model, delivery, () => dl.settleRefund(refund.id, success ? 'SUCCESS' : 'REJECTED'));
    });

  /** The payer's bank takes a payment back: a chargeback at the processor, or the sandbox's (its dispute fee, as priced, ours). */
  const openDispute = (target: Target, delivery: Delivery) =>
    command(`chargeback #${target} (${delivery})`, async (model) => {
      const payment = pickPayment(model, target);
      if (!payment || payment.dispute) return;
      if (payment.processor === 'MERCADO_PAGO' && mp.payments.get(Number(payment.paymentId))!.status !== 'approved') return;
      if (payment.flow === 'PLATFORM') {
        const [price] = await bed.dataSource.query<{ amount: string }[]>(
          `SELECT amount FROM dispute_fee WHERE processor = $1 AND currency = $2`,
          [payment.processor, payment.currency],
        );
        if (price) model.fees.push({ currency: payment.currency, amount: Number(price.amount) });
      }
      if (payment.processor === 'SANDBOX') {
        const refundable = await refundableOf(model, payment);
        if (refundable === 0) return;
        const disputeId = await bed.app.get(DisputeReports).openSandbox({ paymentIntentId: payment.intentId });
        const dispute = (await model.shop.client.get(`/dispute/${disputeId}`)).body as Json;
        payment.dispute = {
          reference: dispute.processorReference as string,
          disputeId,
          amount: Math.round(dispute.amount * 100),
          status: 'OPEN',
        };
      } else if (payment.processor === 'MERCADO_PAGO') {
        let reference = '';
        await deliver(model, delivery, async () => {
          reference = (await mp.chargeback(Number(payment.paymentId))).id;
        });
        payment.dispute = { reference, disputeId: null, amount: payment.amount, status: 'OPEN' };
      } else {
        let reference = '';
        // dLocal sends a chargeback's notification again until it is taken (its documentation): its opening is never lost here.
        await deliver(model, delivery === 'drop' ? 'send' : delivery, async () => {
          reference = await dl.chargeback(payment.paymentId!, `${publicBase}/gateways/dlocal/notifications/${model.shop.merchantId}`);
        });
        payment.dispute = { reference, disputeId: null, amount: payment.amount, status: 'OPEN' };
      }
    });

  /** The processor changes a case's amount (Mercado Pago), or decides it: won (covered, reversed) or lost. */
  const changeDispute = (index: number, outcome: 'WON' | 'LOST' | 'AMOUNT', perMille: number, delivery: Delivery) =>
    command(`dispute #${index} ${outcome === 'AMOUNT' ? `amount ${perMille}‰` : outcome} (${delivery})`, async (model) => {
      const payment = pick(
        model.payments.filter((p) => p.dispute?.status === 'OPEN'),
        index,
      );
      if (!payment) return;
      const dispute = payment.dispute!;
      if (outcome === 'AMOUNT') {
        if (payment.processor !== 'MERCADO_PAGO') return;
        dispute.amount = Math.max(1, Math.floor((payment.amount * perMille) / 1000));
        await deliver(model, delivery, () => mp.changeChargebackAmount(dispute.reference, wire(dispute.amount)));
        return;
      }
      const won = outcome === 'WON';
      if (payment.processor === 'MERCADO_PAGO') await deliver(model, delivery, () => mp.decideChargeback(dispute.reference, won));
      else if (payment.processor === 'DLOCAL')
        await deliver(model, delivery, () => dl.chargebackStatus(dispute.reference, won ? 'REVERSAL' : 'DISPUTE_LOST'));
      else {
        expect(
          await bed.app.get(DisputeReports).apply(model.shop.merchantId, 'SANDBOX', {
            reference: dispute.reference,
            chargeId: await chargeOf(payment),
            amount: dispute.amount,
            currency: payment.currency as never,
            reason: 'GENERAL',
            status: outcome,
            evidenceDueBy: null,
          }),
        ).toBe('applied');
      }
      dispute.status = outcome;
    });
  const chargeOf = async (payment: Payment) =>
    (
      await bed.dataSource.query<{ transaction_id: string }[]>(
        `SELECT transaction_id FROM payin WHERE payment_intent_id = $1 AND transaction_type = 'PAYIN' AND status = 'APPROVED'`,
        [payment.intentId],
      )
    )[0].transaction_id;

  /** Held notifications sent, the latest first (out of order). */
  const sendHeld = () =>
    command('send the held notifications, latest first', async (model) => {
      const held = [...mp.held.splice(0), ...dl.held.splice(0)].reverse();
      for (const notification of held) await notification.send();
      // What was held is heard now; what was lost stays unheard until a reconciliation finds it.
      model.held = 0;
    });

  /** The next day's reconciliation: Mercado Pago's release report, and dLocal's lookups. */
  const reconcile = () =>
    command('reconcile (the next day’s daily run)', async (model) => {
      for (const notification of [...mp.held.splice(0), ...dl.held.splice(0)]) await notification.send();
      model.held = 0;
      const runs = bed.app.get(ReconciliationRunsService);
      const mpRun = await runs.run(model.shop.merchantId, today(), today());
      expect([mpRun.status, mpRun.failureReason]).toEqual(['COMPLETED', null]);
      model.days += 1;
      const dlRun = await runs.run(model.shop.merchantId, addDays(today(), model.days), addDays(today(), model.days), 'DLOCAL');
      expect([dlRun.status, dlRun.failureReason]).toEqual(['COMPLETED', null]);
      model.unheard = 0;
    });

  /** Payouts of the whole available balance in each currency that has one (as a day's scheduled run pays them). */
  const requestPayouts = () =>
    command('payouts', async (model) => {
      for (const currency of ['UYU', 'USD'] as const) {
        const answer = await model.shop.client.post(`/merchant/${model.shop.merchantId}/payout`, { currency });
        if (answer.status === 409) {
          expect(answer.body.errorId).toBe('Payins:NOTHING_TO_PAY_OUT');
          continue;
        }
        expect([answer.status, answer.body.status]).toEqual([200, 'IN_TRANSIT']);
        model.payouts.push({ payoutId: answer.body.payoutId as string, currency });
      }
    });
  const exportPayouts = () =>
    command('export the bank file', async (model) => {
      for (const batch of await bed.app.get(PayoutBatchesService).export(BROU, { businessId: model.shop.businessId }))
        expect(batch.totals).toHaveLength(1);
    });
  /** The bank's answer to a payout (or the merchant's cancellation while it waits unexported). */
  const settlePayout = (index: number, outcome: 'paid' | 'failed' | 'returned' | 'canceled') =>
    command(`payout #${index} ${outcome}`, async (model) => {
      const payout = pick(model.payouts, index);
      if (!payout) return;
      const payouts = bed.app.get(PayoutsService);
      const status = (await model.shop.client.get(`/payout/${payout.payoutId}`)).body.status as string;
      if (outcome === 'paid' && status === 'IN_TRANSIT') await payouts.markPaid(payout.payoutId, `BANK-${crypto.randomInt(1e6)}`);
      else if (outcome === 'failed' && status === 'IN_TRANSIT') await payouts.markFailed(payout.payoutId, 'account closed');
      else if (outcome === 'returned' && status === 'PAID') {
        await payouts.markReturned(payout.payoutId, 'the account refused the credit');
        // Payouts stop until the account changes: the merchant gives another one.
        model.accountSuffix[payout.currency] += 1;
        const changed = await model.shop.client.put(
          `/merchant/${model.shop.merchantId}/settlement-account/${payout.currency}`,
          accountOf(model.accountSuffix[payout.currency]),
        );
        expect(changed.status).toBe(200);
      } else if (outcome === 'canceled' && status === 'IN_TRANSIT') {
        const answer = await model.shop.client.post(`/payout/${payout.payoutId}/cancel`, {});
        // Only while it waits unexported: in a bank file, the bank has it.
        expect([200, 409]).toContain(answer.status);
      }
    });

  // ----- the arbitraries -----

  /** Never ending in 13, 14 or 15 (the sandbox's declined, late and stolen-card amounts). */
  const settled = (minor: number) => (minor % 100 >= 13 && minor % 100 <= 15 ? minor + 3 : minor);
  /** Amounts of 20.00 to 1,500.00. */
  const amount = fc.integer({ min: 2_000, max: 150_000 });
  const delivery = fc.constantFrom<Delivery>('send', 'drop', 'twice', 'hold');
  const index = fc.nat(12);
  /** A payment by its place, or (a third of the time) the one last made or acted on: our operations and the processors' meet on one. */
  const target: fc.Arbitrary<Target> = fc.oneof(
    { arbitrary: fc.nat(12), weight: 2 },
    { arbitrary: fc.constant<Target>('last'), weight: 1 },
  );
  const perMille = fc.integer({ min: 1, max: 1000 });
  const collectionAt = (processors: fc.Arbitrary<Processor>) =>
    fc
      .tuple(processors, amount, fc.constantFrom(1, 1, 3, 6), fc.boolean())
      .map(([processor, minor, installments, dollars]) =>
        collect(
          processor,
          processor === 'SANDBOX' && dollars ? 'USD' : 'UYU',
          settled(processor === 'SANDBOX' && dollars ? Math.max(1_000, Math.floor(minor / 40)) : minor),
          processor === 'MERCADO_PAGO' ? installments : processor === 'DLOCAL' ? Math.min(installments, 3) : 1,
        ),
      );
  const collection = collectionAt(fc.constantFrom<Processor>('SANDBOX', 'SANDBOX', 'MERCADO_PAGO', 'DLOCAL'));
  const subscription = fc
    .tuple(amount, fc.boolean())
    .map(([minor, dollars]) => subscribe(dollars ? 'USD' : 'UYU', settled(dollars ? Math.max(1_000, Math.floor(minor / 40)) : minor)));
  const processorRefunds = fc.tuple(target, perMille, delivery).map(([i, pm, d]) => processorRefund(i, pm, d));
  const apiRefunds = fc.tuple(target, fc.option(perMille, { nil: null, freq: 2 })).map(([i, pm]) => apiRefund(i, pm));
  const manualRefunds = fc
    .tuple(target, perMille, fc.constantFrom<'pending' | 'confirm-pending' | 'confirmed'>('pending', 'confirm-pending', 'confirmed'))
    .map(([i, pm, step]) => manualRefund(i, pm, step));
  // fc.commands picks among these evenly: what a merchant's money needs first (payments) and most (refunds, payouts and their
  // files) appears more than once.
  const commands = [
    collection,
    collection,
    subscription,
    apiRefunds,
    apiRefunds,
    manualRefunds,
    manualRefunds,
    processorRefunds,
    processorRefunds,
    processorRefunds,
    fc.constant(null).map(() => dlocalRefundsPending()),
    fc.tuple(index, fc.boolean(), delivery).map(([i, ok, d]) => settleDLocalRefund(i, ok, d)),
    fc.tuple(target, delivery).map(([t, d]) => openDispute(t, d)),
    fc
      .tuple(index, fc.constantFrom<'WON' | 'LOST' | 'AMOUNT'>('WON', 'LOST', 'AMOUNT'), perMille, delivery)
      .map(([i, outcome, pm, d]) => changeDispute(i, outcome, pm, d)),
    fc.constant(null).map(() => sendHeld()),
    fc.constant(null).map(() => reconcile()),
    fc.constant(null).map(() => requestPayouts()),
    fc.constant(null).map(() => requestPayouts()),
    fc.constant(null).map(() => exportPayouts()),
    fc.constant(null).map(() => exportPayouts()),
    fc
      .tuple(index, fc.constantFrom<'paid' | 'failed' | 'returned' | 'canceled'>('paid', 'paid', 'failed', 'returned', 'canceled'))
      .map(([i, outcome]) => settlePayout(i, outcome)),
  ];

  it('keeps the books equal to what the processors hold, whatever happens in whatever order', async () => {
    const path = process.env.PBT_PATH;
    // A path replays the run it names (its first number), whatever the number of runs asked.
    // 60 sequences in `npm test` (a new seed each run, so the runs of CI search apart); PBT_RUNS=100 or more searches wider.
    const runs = Math.max(Number(process.env.PBT_RUNS ?? 60), path ? Number(path.split(':')[0]) + 1 : 0);
    const seed = process.env.PBT_SEED === undefined ? undefined : Number(process.env.PBT_SEED);
    // The commands' own replay path (the counterexample's `replayPath`), with PBT_SEED and PBT_PATH.
    const replayPath = process.env.PBT_COMMANDS;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ MERCADO_PAGO: fc.constantFrom<Flow>('PLATFORM', 'MERCHANT'), DLOCAL: fc.constantFrom<Flow>('PLATFORM', 'MERCHANT') }),
        // A day opens with a payment at each processor (and perhaps one more), so that what follows has money at every
        // processor to act on, whatever the commands drawn.
        fc
          .tuple(
            collectionAt(fc.constant<Processor>('MERCADO_PAGO')),
            collectionAt(fc.constant<Processor>('DLOCAL')),
            collectionAt(fc.constant<Processor>('SANDBOX')),
            fc.array(collection, { maxLength: 1 }),
          )
          .chain(([mp, dlocal, sandbox, more]) => fc.shuffledSubarray([mp, dlocal, sandbox, ...more], { minLength: 3 + more.length })),
        fc.commands(commands, { maxCommands: 24, size: '+1', replayPath }),
        async (flows, opening, sequence) => {
          dl.refundStatus = 'SUCCESS';
          const shop = await openShop(flows);
          const model: Model = {
            shop,
            payments: [],
            payouts: [],
            fees: [],
            unheard: 0,
            held: 0,
            days: 0,
            accountSuffix: { UYU: 0, USD: 0 },
          };
          for (const first of opening) await first.run(model, { bed });
          await fc.asyncModelRun(() => ({ model, real: { bed } }), sequence);
          // Every news sent or found: the books equal the processors' money; then the day's payouts leave in their bank file.
          for (const last of [reconcile(), requestPayouts(), exportPayouts()]) await last.run(model, { bed });
        },
      ),
      { numRuns: runs, seed, path, verbose: 1 },
    );
  }, 900_000);
});
