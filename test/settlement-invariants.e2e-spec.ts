import { NestExpressApplication } from '@nestjs/platform-express';
import { Currency, MerchantId } from '@pcs/kernel';
import { BalancesService, PricingService } from '@pcs/settlement';
import { clientFor, createTenant, eventually, SignedClient } from '@pcs/testing';
import fc from 'fast-check';
import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { Testbed, testbed } from './testbed';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

type Operation =
  | { kind: 'pay'; shop: number; amount: number }
  | { kind: 'refund'; shop: number; pick: number; part: number }
  | { kind: 'adjust'; shop: number; amount: number }
  | { kind: 'payout'; shop: number; part: number | null };

/**
 * Contract §19 under concurrency: a random mix of approvals, refunds,
 * adjustments, payouts and failed payouts (one shop's account ends in 13:
 * the sandbox bank refuses it), run in concurrent batches. Afterwards, for
 * every merchant: its balance (from the maintained figures) equals the sum of
 * its balance transactions, exactly; the books close (collections, refunds
 * and adjustments, less what payouts took and did not give back, are what the
 * balance holds); and no payout ever took more than was collected net.
 */
describe('balances stay exact under any mix of concurrent money movements', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let dataSource: DataSource;
  let brou: string;

  beforeAll(async () => {
    bed = await testbed({});
    ({ app, dataSource } = bed);
    brou = ((await bed.merchant.get('/bank?country=URY')).body as { bankId: string; code: string }[]).find((b) => b.code === '001')!.bankId;
  });
  afterAll(() => bed.close());

  interface Shop {
    merchantId: string;
    businessId: string;
    client: SignedClient;
    payerId: string;
    intents: string[];
  }

  async function openShop(accountNumber: string, settlementDelayDays: number): Promise<Shop> {
    const tenant = await createTenant(app);
    const [m] = tenant.merchants;
    const client = clientFor(app, m);
    const relationships = (await client.get(`/merchant-country-processor?merchantId=${m.merchantId}`)).body as {
      merchantCountryProcessorId: string;
      countryProcessor: { paymentMethod: { paymentMethodName: string } };
    }[];
    const oca = relationships.find((r) => r.countryProcessor.paymentMethod.paymentMethodName === 'OCA')!;
    // Money available at once, or the next business day (pending until then): both kinds of figure move.
    await app.get(PricingService).set(m.merchantId, oca.merchantCountryProcessorId, {
      percentage: 3.25,
      fixed: { currency: Currency.UYU, amount: 1.5 },
      settlementDelayDays,
    });
    await client.put(`/merchant/${m.merchantId}/settlement-account/UYU`, { bankId: brou, accountNumber, accountType: 'SAVINGS' });
    const payerId = (await client.post('/payer', { firstName: 'Mix', lastName: 'Tester' })).body.payerId as string;
    return { merchantId: m.merchantId, businessId: tenant.business.businessId, client, payerId, intents: [] };
  }

  async function perform(shops: Shop[], operation: Operation): Promise<void> {
    const shop = shops[operation.shop];
    switch (operation.kind) {
      case 'pay': {
        const created = await shop.client.post('/payment-intent', {
          currency: 'UYU',
          amount: operation.amount,
          payinType: 'DEFAULT',
          externalReference: `mix-${crypto.randomUUID()}`,
          payerId: shop.payerId,
          offSession: true,
          invoiceNumber: 1,
          country: 'URY',
          paymentInstrumentData: { paymentMethodName: 'OCA' },
          confirm: true,
        });
        if (created.body.status === 'SUCCEEDED') shop.intents.push(created.body.paymentIntent.paymentIntentId);
        return;
      }
      case 'refund': {
        if (shop.intents.length === 0) return;
        const intentId = shop.intents[operation.pick % shop.intents.length];
        await shop.client.post(`/payment-intent/${intentId}/refund`, operation.part === 0 ? {} : { requestedRefundAmount: operation.part });
        return;
      }
      case 'adjust':
        await app.get(BalancesService).adjust(shop.merchantId as MerchantId, shop.businessId, Currency.UYU, operation.amount, 'mix');
        return;
      case 'payout':
        await shop.client.post(
          `/merchant/${shop.merchantId}/payout`,
          operation.part === null ? { currency: 'UYU' } : { currency: 'UYU', amount: operation.part },
        );
    }
  }

  const operation: fc.Arbitrary<Operation> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('pay' as const),
        shop: fc.nat(2),
        amount: fc.integer({ min: 100, max: 500_000 }).map((c) => c / 100),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('refund' as const),
        shop: fc.nat(2),
        pick: fc.nat(),
        part: fc.constantFrom(0, 1, 10.5, 250),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('adjust' as const),
        shop: fc.nat(2),
        amount: fc.integer({ min: -20_000, max: 20_000 }).filter((a) => a !== 0),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('payout' as const),
        shop: fc.nat(2),
        part: fc.option(fc.constantFrom(1, 5.55, 100), { nil: null }),
      }),
    },
  );

  it('keeps balance = Σ transactions, closes the books, and never pays out more than was collected net', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(operation, { minLength: 2, maxLength: 8 }), { minLength: 3, maxLength: 5 }), async (batches) => {
        const shops = [await openShop('00123456700001', 0), await openShop('00123456700002', 1), await openShop('00123456700013', 0)];
        for (const batch of batches) await Promise.all(batch.map((op) => perform(shops, op)));
        for (const shop of shops) {
          // Every payout settled (paid, or failed and given back) before the books are closed.
          await eventually(
            () =>
              dataSource.query(`SELECT count(*)::int AS n FROM payout WHERE merchant_id = $1 AND status IN ('PENDING', 'IN_TRANSIT')`, [
                shop.merchantId,
              ]),
            ([row]: { n: number }[]) => row.n === 0,
          );
          const [sums] = await dataSource.query(
            `SELECT coalesce(sum(net) FILTER (WHERE available_on > now() AND available_on > created_at), 0)::bigint AS pending,
                    coalesce(sum(net) FILTER (WHERE available_on <= now() OR available_on <= created_at), 0)::bigint AS available,
                    coalesce(sum(net) FILTER (WHERE type IN ('PAYIN', 'REFUND', 'ADJUSTMENT')), 0)::bigint AS moved,
                    coalesce(sum(net) FILTER (WHERE type = 'PAYIN' OR (type = 'ADJUSTMENT' AND net > 0)), 0)::bigint AS collected
               FROM balance_transaction WHERE merchant_id = $1 AND currency = 'UYU'`,
            [shop.merchantId],
          );
          const [figures] = await dataSource.query(
            `SELECT coalesce(sum(net), 0)::bigint AS total FROM balance_figure WHERE merchant_id = $1 AND currency = 'UYU'`,
            [shop.merchantId],
          );
          const [paid] = await dataSource.query(
            `SELECT coalesce(sum(amount), 0)::bigint AS total FROM payout WHERE merchant_id = $1 AND status = 'PAID'`,
            [shop.merchantId],
          );
          const balance = (await shop.client.get(`/merchant/${shop.merchantId}/balance`)).body.balances.find(
            (b: { currency: string }) => b.currency === 'UYU',
          );
          const cents = (v: number) => Math.round(v * 100);
          // The balance read from the figures is the transactions' sum, exactly.
          expect([cents(balance.pending), cents(balance.available)]).toEqual([Number(sums.pending), Number(sums.available)]);
          expect(Number(figures.total)).toBe(Number(sums.pending) + Number(sums.available));
          // The books close: what moved in, less what reached the bank, is what the balance holds (failed payouts gave theirs back).
          expect(Number(sums.moved) - Number(paid.total)).toBe(Number(sums.pending) + Number(sums.available));
          expect(balance.inTransit).toBe(0);
          // No payout ever took more than was collected net.
          expect(Number(paid.total)).toBeLessThanOrEqual(Number(sums.collected));
        }
        // The shop whose bank refuses its account was paid nothing.
        const [refused] = await dataSource.query(`SELECT count(*)::int AS n FROM payout WHERE merchant_id = $1 AND status = 'PAID'`, [
          shops[2].merchantId,
        ]);
        expect(refused.n).toBe(0);
      }),
      { seed: SEED, numRuns: 4, endOnFailure: true },
    );
  }, 300_000);
});
