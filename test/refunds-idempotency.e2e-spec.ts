import { hmacHex, SignedClient, signV3, TestTenant } from '@pcs/testing/http';
import request from 'supertest';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

describe('refunds under concurrency, manual refunds, idempotency keys', () => {
  let bed: HttpTestbed;
  let tenant: TestTenant;
  let merchant: SignedClient;
  let payerId: string;

  beforeAll(async () => {
    bed = await sharedTestbed({ payer: { firstName: 'Refund', lastName: 'Tester' } });
    ({ tenant, merchant, payerId } = bed);
  });
  afterAll(() => bed.close());

  const paidIntent = (amount: number) => bed.paidIntent(amount);
  const refundedSum = async (intentId: string): Promise<{ total: number; count: number }> => {
    const [row] = await bed.query<{ total: string; count: number }>(
      `SELECT coalesce(sum(amount), 0)::bigint AS total, count(*)::int AS count FROM payin WHERE payment_intent_id = $1 AND transaction_type = 'REFUND' AND status <> 'REJECTED'`,
      [intentId],
    );
    return { total: Number(row.total), count: row.count };
  };

  it('never refunds more than was collected, whatever the number of concurrent refunds', async () => {
    const intentId = await paidIntent(1000);
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        merchant.post(`/payment-intent/${intentId}/refund`, i % 5 === 0 ? undefined : { requestedRefundAmount: 100 }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status !== 200);
    expect(refused.every((r) => r.status === 400 || r.status === 409)).toBe(true);
    expect(
      refused.every((r) => ['Payins:REFUND_AMOUNT_EXCEEDS_AVAILABLE', 'Payins:PAYMENT_INTENT_INVALID_STATE'].includes(r.body.errorId)),
    ).toBe(true);
    const { total } = await refundedSum(intentId);
    expect(total).toBe(100000); // every cent, and not one more
    expect(ok.length).toBeGreaterThan(0);
    expect((await merchant.get(`/payment-intent/${intentId}`)).body.paymentIntentStatus).toBe('REFUNDED');
  });

  it('refuses a refund above what is refundable and one with more decimals than the currency', async () => {
    const intentId = await paidIntent(300);
    await merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 250 });
    const tooMuch = await merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 50.01 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body).toMatchObject({ errorId: 'Payins:REFUND_AMOUNT_EXCEEDS_AVAILABLE' });
    expect(tooMuch.body.showMessage.EN).toContain('50 UYU');
    const precise = await merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 1.005 });
    expect(precise.status).toBe(400);
    expect(precise.body.message).toContain('requestedRefundAmount');
    for (const bad of [0, -5])
      expect((await merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: bad })).status).toBe(400);
    expect((await refundedSum(intentId)).total).toBe(25000);
  });

  it('reserves a pending manual refund, confirms it later, and counts it against what is refundable', async () => {
    const intentId = await paidIntent(500);
    const pending = await merchant.post(`/payment-intent/${intentId}/manual-refund`, {
      requestedRefundAmount: 200,
      status: 'MANUAL_REFUND_PENDING',
    });
    expect(pending.status).toBe(200);
    expect(pending.body.paymentIntentStatus).toBe('PARTIALLY_REFUNDED');
    const over = await merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 300.01 });
    expect(over.status).toBe(400);
    const ledgerRow = async () =>
      (await merchant.get('/payin?limit=100')).body[0].results.find(
        (p: { paymentIntentId: string; conceptCode: string }) => p.paymentIntentId === intentId && p.conceptCode === 'MANUAL_REFUND',
      );
    expect(await ledgerRow()).toMatchObject({ status: 'PENDING', amount: 200, transactionType: 'REFUND' });
    const confirmed = await merchant.post(`/payment-intent/${intentId}/manual-refund`, { status: 'MANUAL_REFUND_CONFIRMED' });
    expect(confirmed.status).toBe(200);
    expect(await ledgerRow()).toMatchObject({ status: 'APPROVED', amount: 200 });
    expect((await refundedSum(intentId)).count).toBe(1);
    const direct = await merchant.post(`/payment-intent/${intentId}/manual-refund`, { status: 'MANUAL_REFUND_CONFIRMED' });
    expect(direct.body.paymentIntentStatus).toBe('REFUNDED');
    expect((await refundedSum(intentId)).total).toBe(50000);
    const missingStatus = await merchant.post(`/payment-intent/${intentId}/manual-refund`, { requestedRefundAmount: 1 });
    expect(missingStatus.status).toBe(400);
    expect(missingStatus.body.message).toContain('status');
  });

  it("lists one payment's attempts and refunds (GET /payin?paymentIntentId=, beyond the specification), exactly counted, for its tenant only", async () => {
    const intentId = await paidIntent(700);
    const other = await paidIntent(800);
    expect((await merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 100 })).status).toBe(200);
    const intent = await merchant.get(`/payment-intent/${intentId}`);
    expect(intent.body.merchantId).toBe(tenant.merchants[0].merchantId);
    const page = await merchant.get(`/payin?paymentIntentId=${intentId}&order=ASC`);
    expect(page.status).toBe(200);
    expect(page.body[0].rowCount).toBe(2);
    expect(page.body[0].results.map((r: { transactionType: string; amount: number }) => [r.transactionType, r.amount])).toEqual([
      ['PAYIN', 700],
      ['REFUND', 100],
    ]);
    expect(page.body[0].results.every((r: { paymentIntentId: string }) => r.paymentIntentId === intentId)).toBe(true);
    expect((await merchant.get(`/payin?paymentIntentId=${other}`)).body[0].rowCount).toBe(1);
    // Another business sees none of it.
    const stranger = bed.client((await bed.newTenant()).merchants[0]);
    const theirs = await stranger.get(`/payin?paymentIntentId=${intentId}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body[0]).toMatchObject({ rowCount: 0, results: [] });
    expect((await merchant.get('/payin?paymentIntentId=not-a-uuid')).status).toBe(400);

    // Its story in the event log (GET /event?paymentIntentId=): its payment_intent.* and refund.* events only.
    const events = (await merchant.get(`/event?paymentIntentId=${intentId}&limit=100`)).body[0];
    const types = events.results.map((e: { type: string }) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['payment_intent.created', 'payment_intent.succeeded', 'refund.created', 'payment_intent.partially_refunded']),
    );
    expect(events.results.every((e: { data: { object: { paymentIntentId: string } } }) => e.data.object.paymentIntentId === intentId)).toBe(
      true,
    );
    expect(events.rowCount).toBe(types.length);
    expect((await stranger.get(`/event?paymentIntentId=${intentId}`)).body[0]).toMatchObject({ rowCount: 0, results: [] });
    expect((await merchant.get('/event?paymentIntentId=nope')).status).toBe(400);
  });

  describe('Idempotency-Key', () => {
    const body = () => ({
      currency: 'UYU',
      amount: 42,
      payinType: 'DEFAULT',
      externalReference: 'idem-1',
      payerId,
      offSession: false,
      invoiceNumber: 9,
      country: 'URY',
    });
    const post = (key: string, payload: unknown) =>
      request(bed.url)
        .post('/payment-intent')
        .set('api-key', tenant.merchants[0].apiKey)
        .set('signature', hmacHex(tenant.merchants[0].apiSecret, JSON.stringify(payload)))
        .set('content-type', 'application/json')
        .set('Idempotency-Key', key)
        .send(JSON.stringify(payload));
    const intentsWithReference = async (reference: string) =>
      Number((await bed.query('SELECT count(*) AS n FROM payment_intent WHERE external_reference = $1', [reference]))[0].n);

    it('replays the first response exactly for the same key and body, and creates one intent', async () => {
      const first = await post('key-replay', body());
      const second = await post('key-replay', body());
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.text).toBe(first.text);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(await intentsWithReference('idem-1')).toBe(1);
    });

    it('refuses the same key with another body (422) and keeps keys apart per credentials', async () => {
      await post('key-reuse', body());
      const other = await post('key-reuse', { ...body(), amount: 43 });
      expect(other.status).toBe(422);
      expect(other.body.errorId).toBe('Payins:IDEMPOTENCY_KEY_REUSED');
      const asBusiness = await request(bed.url)
        .post('/payment-intent')
        .set('api-key', tenant.business.apiKey)
        .set('signature', hmacHex(tenant.business.apiSecret, JSON.stringify({ ...body(), amount: 43 })))
        .set('content-type', 'application/json')
        .set('Idempotency-Key', 'key-reuse')
        .send(JSON.stringify({ ...body(), amount: 43 }));
      expect(asBusiness.status).toBe(200);
    });

    it('lets exactly one of many concurrent requests with one key run', async () => {
      const payload = { ...body(), externalReference: 'idem-race' };
      const responses = await Promise.all(Array.from({ length: 10 }, () => post('key-race', payload)));
      const statuses = responses.map((r) => r.status);
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      for (const conflict of responses.filter((r) => r.status === 409))
        expect(conflict.body.errorId).toBe('Payins:IDEMPOTENCY_REQUEST_IN_PROGRESS');
      expect(await intentsWithReference('idem-race')).toBe(1);
      const later = await post('key-race', payload);
      expect(later.status).toBe(200);
      expect(later.body.paymentIntent.paymentIntentId).toBe(responses.find((r) => r.status === 200)!.body.paymentIntent.paymentIntentId);
    });

    it('replays a refund instead of refunding twice, and replays errors too', async () => {
      const intentId = await paidIntent(200);
      const refund = (key: string, payload: unknown) =>
        request(bed.url)
          .post(`/payment-intent/${intentId}/refund`)
          // Version 3 (contract §29: refunds take nothing else); a retry signed again, as a client does.
          .set(signV3(tenant.merchants[0], 'POST', `/payment-intent/${intentId}/refund`, JSON.stringify(payload)))
          .set('content-type', 'application/json')
          .set('Idempotency-Key', key)
          .send(JSON.stringify(payload));
      const first = await refund('refund-1', { requestedRefundAmount: 150 });
      const retry = await refund('refund-1', { requestedRefundAmount: 150 });
      expect(retry.text).toBe(first.text);
      expect((await refundedSum(intentId)).total).toBe(15000);
      const tooMuch = await refund('refund-2', { requestedRefundAmount: 100 });
      expect(tooMuch.status).toBe(400);
      expect((await refund('refund-2', { requestedRefundAmount: 100 })).text).toBe(tooMuch.text);
      expect((await post('x'.repeat(256), body())).status).toBe(400);
    });

    it('takes a key past its 24 hours as new work (another body is no reuse), and deletes other expired keys as keys are taken', async () => {
      const payload = { ...body(), externalReference: 'idem-expired' };
      const first = await post('key-expired', payload);
      expect(first.status).toBe(200);
      // Another tenant's stale key, and this one's, a day and a minute old.
      await bed.query(
        `INSERT INTO idempotency_key (scope, key, request_hash, state, expires_at) VALUES ('gone:*', 'stale', repeat('0', 64), 'DONE', now() - interval '1 minute')`,
      );
      await bed.query(`UPDATE idempotency_key SET expires_at = now() - interval '1 minute' WHERE key = 'key-expired'`);
      const again = await post('key-expired', { ...payload, amount: 43 });
      expect(again.status).toBe(200);
      expect(again.body.paymentIntent.paymentIntentId).not.toBe(first.body.paymentIntent.paymentIntentId);
      expect(await intentsWithReference('idem-expired')).toBe(2);
      const [{ n }] = await bed.query(`SELECT count(*)::int AS n FROM idempotency_key WHERE expires_at < now()`);
      expect(n).toBe(0);
      // The key now names the new request: its replay is the new answer.
      expect((await post('key-expired', { ...payload, amount: 43 })).text).toBe(again.text);
    });
  });
});
