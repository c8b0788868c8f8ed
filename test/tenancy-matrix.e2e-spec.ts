import type { NestExpressApplication } from '@nestjs/platform-express';
import { DisputeReports } from '@pcs/disputes';
import { Currency } from '@pcs/kernel';
import { ReconciliationRunsService } from '@pcs/processor-reports';
import { BalancesService } from '@pcs/settlement';
import { clientFor, createTenant, multipartBody, pdfFile, SignedClient, TestTenant } from '@pcs/testing';
import { operationsOf } from './openapi-operations';
import { startB2bApi } from './payins-app';
import { Testbed, testbed } from './testbed';

/** Path parameters that name no tenant's resource: the same for everyone. */
const SHARED: Record<string, string> = { currency: 'UYU', countryCode: 'URY' };

/**
 * The tenancy matrix (contract §27, OWASP API1): every route of both OpenAPI
 * documents that names a resource in its path, generated from the committed
 * documents (a route added tomorrow joins by itself), asked by another
 * business's credentials and by its merchant's, with the first tenant's real
 * ids. A read, a bodyless change and a delete are a 404; a change with a body
 * is a 404 or the 400 of a body the route would refuse from anyone; no
 * answer carries any of the tenant's ids, and the tenant's rows are exactly
 * as they were. Every list route that takes `merchantId` is asked for the
 * tenant's merchant too, and shows nothing of it.
 */
describe('the tenancy matrix: every route with a resource in its path', () => {
  let bed: Testbed;
  let b2b: NestExpressApplication;
  let stranger: TestTenant;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    bed = await testbed({
      payer: { firstName: 'Matrix', lastName: 'Owner', email: 'matrix@example.uy' },
      settlement: { pollSeconds: 3600 },
    });
    b2b = await startB2bApi();
    stranger = await createTenant(bed.app, { name: 'Stranger business' });
    const merchant = bed.merchant;
    const merchantId = bed.tenant.merchants[0].merchantId;
    const relations = (await merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as {
      merchantCountryProcessorId: string;
    }[];
    const instrument = (await merchant.post('/payment-instrument', { payerId: bed.payerId, paymentMethodName: 'VISA', country: 'URY' }))
      .body;
    const paymentIntentId = await bed.paidIntent(500);
    const link = (
      await merchant.post('/link', {
        amount: 100,
        vatPercentage: 22,
        currency: 'UYU',
        merchantCountryProcessors: [relations[0].merchantCountryProcessorId],
        country: 'URY',
        description: 'Matrix',
        reference: 'matrix-1',
      })
    ).body;
    const endpoint = (await merchant.post('/webhook-endpoint', { url: 'https://hooks.example.com/matrix' })).body;
    const brou = ((await merchant.get('/bank?country=URY')).body as { bankId: string; code: string }[]).find(
      (b) => b.code === '001',
    )!.bankId;
    await merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, {
      bankId: brou,
      accountNumber: '00123456700001',
      accountType: 'SAVINGS',
    });
    await bed.app.get(BalancesService).adjust(merchantId, bed.tenant.business.businessId, 'UYU' as Currency, 100_000, 'matrix');
    const payout = (await merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU', amount: 10 })).body;
    const run = await bed.app.get(ReconciliationRunsService).run(merchantId, '2026-11-24', '2026-11-24');
    const disputeId = await bed.app.get(DisputeReports).openSandbox({ paymentIntentId });
    // A subscription on a test clock, moved past its first period: its invoice.
    const clock = (await merchant.post('/test-clock', { merchantId, frozenTime: '2027-01-01T12:00:00Z' })).body;
    const subscription = (
      await merchant.post('/subscription', {
        merchantId,
        payerId: bed.payerId,
        paymentInstrumentId: instrument.paymentInstrumentId,
        amount: 250,
        currency: 'UYU',
        interval: 'MONTH',
        intervalCount: 1,
        description: 'Matrix membership',
        testClockId: clock.testClockId,
      })
    ).body;
    await merchant.post(`/test-clock/${clock.testClockId}/advance`, { to: '2027-01-02T12:00:00Z' });
    const invoice = (
      (await merchant.get(`/invoice?subscriptionId=${subscription.subscriptionId}`)).body as { results: { invoiceId: string }[] }[]
    )[0].results[0];
    const setup = (
      await merchant.post('/payment-instrument/setup', { merchantId, payerId: bed.payerId, returnUrl: 'https://shop.example.com/cards' })
    ).body;
    const event = ((await merchant.get('/event?limit=1')).body as { results: { id: string }[] }[])[0].results[0];
    Object.assign(ids, {
      merchantId,
      payerId: bed.payerId,
      paymentInstrumentId: instrument.paymentInstrumentId,
      paymentIntentId,
      merchantCountryProcessorId: relations[0].merchantCountryProcessorId,
      linkId: link.linkId,
      webhookEndpointId: endpoint.webhookEndpointId,
      payoutId: payout.payoutId,
      runId: run.runId,
      disputeId,
      eventId: event.id,
      testClockId: clock.testClockId,
      subscriptionId: subscription.subscriptionId,
      invoiceId: invoice?.invoiceId,
      setupId: setup.setupId,
    });
    for (const [name, value] of Object.entries(ids)) if (typeof value !== 'string') throw new Error(`no ${name} to try`);
  }, 120_000);
  afterAll(async () => {
    await b2b.close();
    await bed.close();
  });

  /** The tenant's rows, hashed: equal before and after the other tenant's attempts. */
  const fingerprint = async (): Promise<string> => {
    const of = (table: string) =>
      `(SELECT coalesce(string_agg(t::text, ',' ORDER BY t::text), '') FROM ${table} t WHERE t.business_id = $1)`;
    const [{ hash }] = await bed.dataSource.query(
      `SELECT md5(concat_ws('|', ${[
        'merchant',
        'payer',
        'payment_instrument',
        'payment_intent',
        'payin',
        'balance_transaction',
        'settlement_account',
        'payout',
        'reconciliation_run',
        'gateway_account',
        'dispute',
        'test_clock',
        'subscription',
        'invoice',
        'payment_instrument_setup',
      ]
        .map(of)
        .join(', ')}, (SELECT coalesce(string_agg(t::text, ',' ORDER BY t::text), '') FROM link t WHERE t.merchant_id IN
          (SELECT merchant_id FROM merchant WHERE business_id = $1)))) AS hash`,
      [bed.tenant.business.businessId],
    );
    return hash as string;
  };

  const leaks = (text: string) =>
    Object.entries(ids)
      .filter(([, value]) => text.includes(value))
      .map(([name]) => name);

  it('answers every such route, asked by another business or its merchant with the tenant’s ids, with nothing of the tenant', async () => {
    const before = await fingerprint();
    const operations = [...operationsOf('payins'), ...operationsOf('b2b')].filter((op) =>
      op.pathParams.some((name) => SHARED[name] === undefined),
    );
    const unknown = operations.flatMap((op) => op.pathParams.filter((name) => SHARED[name] === undefined && ids[name] === undefined));
    // A route whose resource this test cannot name yet fails it: the matrix must be taught the new id.
    expect(unknown).toEqual([]);
    const callers: [string, SignedClient, SignedClient][] = [
      ['business', clientFor(bed.app, stranger.business), clientFor(b2b, stranger.business)],
      ['merchant', clientFor(bed.app, stranger.merchants[0]), clientFor(b2b, stranger.merchants[0])],
    ];
    const outcomes: string[] = [];
    for (const op of operations) {
      const url = op.pathParams.reduce((path, name) => path.replace(`{${name}}`, SHARED[name] ?? ids[name]), op.path);
      for (const [who, payins, b2bClient] of callers) {
        const client = op.api === 'payins' ? payins : b2bClient;
        const upload = op.multipart ? multipartBody([{ fileName: 'a.pdf', contentType: 'application/pdf', content: pdfFile() }]) : null;
        const answer = upload
          ? await client.upload(url, upload.body, upload.contentType)
          : op.method === 'get' || op.method === 'delete'
            ? await client[op.method](url)
            : await client[op.method](url, op.body ? {} : undefined);
        const allowed = op.body && op.method !== 'delete' ? [400, 404] : [404];
        outcomes.push(`${op.method.toUpperCase()} ${op.path} as ${who}: ${answer.status}`);
        expect([op.method, op.path, who, allowed.includes(answer.status)]).toEqual([op.method, op.path, who, true]);
        expect([op.method, op.path, who, leaks(JSON.stringify(answer.body ?? '') + (answer.text ?? ''))]).toEqual([
          op.method,
          op.path,
          who,
          [],
        ]);
      }
    }
    expect(outcomes.length).toBeGreaterThanOrEqual(100);
    process.stdout.write(`[tenancy-matrix] ${outcomes.length} requests over ${operations.length} routes\n`);
    expect(await fingerprint()).toBe(before);
  }, 180_000);

  it('shows nothing of the tenant on any list route asked for its merchant', async () => {
    const lists = [...operationsOf('payins'), ...operationsOf('b2b')].filter(
      (op) => op.method === 'get' && op.pathParams.length === 0 && op.query.some((q) => q.name === 'merchantId'),
    );
    expect(lists.length).toBeGreaterThanOrEqual(5);
    for (const op of lists) {
      for (const credentials of [stranger.business, stranger.merchants[0]]) {
        const client = clientFor(op.api === 'payins' ? bed.app : b2b, credentials);
        // The tenant's merchant, its own resources where the route takes them, and an example for what else it requires.
        const query = new URLSearchParams({ merchantId: ids.merchantId });
        for (const q of op.query) {
          const own = (ids as Record<string, string | undefined>)[q.name];
          if (q.name !== 'merchantId' && own) query.set(q.name, own);
          else if (q.required && (typeof q.schema.example === 'string' || typeof q.schema.example === 'number'))
            query.set(q.name, String(q.schema.example));
        }
        const answer = await client.get(`${op.path}?${query.toString()}`);
        expect([op.path, [200, 404].includes(answer.status)]).toEqual([op.path, true]);
        expect([op.path, leaks(answer.text ?? '')]).toEqual([op.path, []]);
      }
    }
  });
});
