import { errorShape } from '@pcs/testing/http';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

/** GET /payin/summary (beyond the specification): the operations dashboard's figures, from the ledger, per tenant. */
describe('the ledger summary (GET /payin/summary)', () => {
  let bed: HttpTestbed;

  beforeAll(async () => {
    bed = await sharedTestbed({ merchants: 2, payer: { firstName: 'Sum', lastName: 'Mary' } });
  });
  afterAll(() => bed.close());

  const paid = (amount: number, currency = 'UYU') => bed.paidIntent(amount, currency);

  it('sums collections and refunds per day, payment method and currency, in wire amounts, with the approval rate', async () => {
    const first = await paid(100.1);
    await paid(200.25);
    expect((await bed.merchant.post(`/payment-intent/${first}/refund`, { requestedRefundAmount: 50.05 })).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const summary = await bed.business.get('/payin/summary');
    expect(summary.status).toBe(200);
    expect(summary.body.dateUntil).toBe(today);
    expect(summary.body.dateFrom).toBe(new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10));
    expect(summary.body.days).toEqual([{ day: today, currency: 'UYU', collected: 300.35, approved: 2, rejected: 0 }]);
    expect(summary.body.paymentMethods).toEqual([
      { paymentMethodName: 'OCA', currency: 'UYU', collected: 300.35, approved: 2, rejected: 0 },
    ]);
    expect(summary.body.totals).toEqual([
      { currency: 'UYU', collected: 300.35, refunded: 50.05, approved: 2, rejected: 0, approvalRate: 1 },
    ]);

    // One merchant's figures; the other merchant has none; a span without payins has none.
    expect((await bed.business.get(`/payin/summary?merchantId=${bed.tenant.merchants[0].merchantId}`)).body.totals[0].collected).toBe(
      300.35,
    );
    expect((await bed.business.get(`/payin/summary?merchantId=${bed.tenant.merchants[1].merchantId}`)).body.totals).toEqual([]);
    expect((await bed.business.get('/payin/summary?dateFrom=2025-01-01&dateUntil=2025-01-31')).body).toEqual({
      dateFrom: '2025-01-01',
      dateUntil: '2025-01-31',
      days: [],
      paymentMethods: [],
      totals: [],
    });
    // The merchant's own key sees its own; the other merchant's key sees nothing of it.
    expect((await bed.merchant.get('/payin/summary')).body.totals[0].collected).toBe(300.35);
    expect((await bed.client(bed.tenant.merchants[1]).get('/payin/summary')).body.totals).toEqual([]);
  });

  it("shows another business nothing, and refuses another tenant's merchant, bad dates and spans over 366 days", async () => {
    const stranger = bed.client((await bed.newTenant()).business);
    expect((await stranger.get('/payin/summary')).body.totals).toEqual([]);
    const foreign = await stranger.get(`/payin/summary?merchantId=${bed.tenant.merchants[0].merchantId}`);
    expect(foreign.status).toBe(404);
    for (const query of [
      'dateFrom=2026-02-30',
      'dateUntil=yesterday',
      'dateFrom=2026-11-24&dateUntil=2026-11-01',
      'dateFrom=2024-01-01&dateUntil=2025-12-31',
    ]) {
      const refused = await bed.business.get(`/payin/summary?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(errorShape('Validation:INVALID_REQUEST'));
    }
  });
});
