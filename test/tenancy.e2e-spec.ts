import { NestExpressApplication } from '@nestjs/platform-express';
import { DisputeReports } from '@pcs/disputes';
import { Currency, MerchantId } from '@pcs/kernel';
import { ReconciliationRunsService } from '@pcs/processor-reports';
import { BalancesService } from '@pcs/settlement';
import { clientFor, createTenant, multipartBody, pdfFile, SignedClient, TestTenant } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { Testbed, testbed } from './testbed';

/** Contract §4: another tenant's resource is a 404, never its data, and nothing changes. */
describe('tenant isolation', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let owner: TestTenant;
  let stranger: TestTenant;
  let victimId: string;
  let relationshipId: string;

  beforeAll(async () => {
    bed = await testbed({ merchants: 2 });
    ({ app, tenant: owner } = bed);
    stranger = await createTenant(app);
    victimId = owner.merchants[0].merchantId;
    relationshipId = (await clientFor(app, owner.business).get(`/merchant-country-processor?merchantId=${victimId}`)).body[0]
      .merchantCountryProcessorId;
  });
  afterAll(() => bed.close());

  const intruders = (): [string, SignedClient][] => [
    ['another business', clientFor(app, stranger.business)],
    ["another business's merchant", clientFor(app, stranger.merchants[0])],
    ['another merchant of the same business', clientFor(app, owner.merchants[1])],
  ];

  it.each([0, 1, 2])(
    "intruder %#: the merchant's Mercado Pago account is a 404 to read, replace or remove, and stays as it was",
    async (index) => {
      const route = `/merchant/${victimId}/gateway-account/mercado-pago`;
      const owned = clientFor(app, owner.business);
      expect((await owned.put(route, { accessToken: 'TEST-owner-token-0001', webhookSecret: 'owner-secret' })).status).toBe(200);
      const [, client] = intruders()[index];
      for (const response of [
        await client.get(route),
        await client.put(route, { accessToken: 'TEST-intruder-token-9999', webhookSecret: 'intruder' }),
        await client.delete(route),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body.errorId).toBe('Payins:MERCHANT_NOT_FOUND');
      }
      expect((await owned.get(route)).body).toMatchObject({ accessTokenHint: '…0001', paymentMethods: ['MERCADO_PAGO'] });
      expect((await owned.delete(route)).status).toBe(200);
    },
  );

  it.each([0, 1, 2])(
    "intruder %#: the merchant's dLocal account is a 404 to read, replace or remove, and stays as it was",
    async (index) => {
      const route = `/merchant/${victimId}/gateway-account/dlocal`;
      const owned = clientFor(app, owner.business);
      const credentials = { xLogin: 'owner-x-login-0001', xTransKey: 'owner-trans-key-0001', secretKey: 'owner-secret-key-0001' };
      expect((await owned.put(route, { ...credentials, paymentMethods: ['VISA'] })).status).toBe(200);
      const [, client] = intruders()[index];
      for (const response of [
        await client.get(route),
        await client.put(route, { xLogin: 'intruder-login-9999', xTransKey: 'intruder', secretKey: 'intruder', paymentMethods: ['VISA'] }),
        await client.delete(route),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body.errorId).toBe('Payins:MERCHANT_NOT_FOUND');
      }
      expect((await owned.get(route)).body).toMatchObject({ xLoginHint: '…0001', secretKeyHint: '…0001', paymentMethods: ['VISA'] });
      expect((await owned.delete(route)).status).toBe(200);
    },
  );

  it.each([0, 1, 2])('intruder %#: every merchant operation answers 404 and changes nothing', async (index) => {
    const [, client] = intruders()[index];
    const attempts = [
      client.get(`/merchant/${victimId}`),
      client.patch(`/merchant/${victimId}`, { merchantName: 'Hijacked' }),
      client.delete(`/merchant/${victimId}`),
      client.get(`/merchant/${victimId}/payment-methods`),
      client.get(`/merchant/${victimId}/configuration`),
      client.put(`/merchant/${victimId}/configuration`, { shortName: 'hijacked' }),
      client.get(`/merchant-country-processor?merchantId=${victimId}`),
      client.post('/merchant-country-processor', { merchantId: victimId, countryProcessorsId: [] }),
      client.patch(`/merchant-country-processor/${relationshipId}`, { active: false }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect([404, 400]).toContain(response.status);
      if (response.status === 400) expect(response.body.message).toContain('countryProcessorsId');
      else expect(response.body.errorId).toMatch(/^Payins:(MERCHANT|MERCHANT_COUNTRY_PROCESSOR)_NOT_FOUND$/);
      expect(JSON.stringify(response.body)).not.toContain(owner.merchants[0].apiKey);
    }
    const list = (await client.get('/merchant')).body[0];
    expect(list.results.map((m: { merchantId: string }) => m.merchantId)).not.toContain(victimId);

    const after = await clientFor(app, owner.business).get(`/merchant/${victimId}`);
    expect(after.status).toBe(200);
    expect(after.body.merchantName).not.toBe('Hijacked');
    expect((await clientFor(app, owner.business).get(`/merchant/${victimId}/configuration`)).body.shortName).toBeNull();
    const relationship = (await clientFor(app, owner.business).get(`/merchant-country-processor?merchantId=${victimId}`)).body.find(
      (r: { merchantCountryProcessorId: string }) => r.merchantCountryProcessorId === relationshipId,
    );
    expect(relationship.active).toBe(true);
  });

  it("lists a caller's own credentials only, with their last use and never a secret (GET /credential)", async () => {
    // A signed request first: its use is recorded (to the minute, off the request's path).
    await clientFor(app, owner.merchants[0]).get('/merchant');
    const business = await clientFor(app, owner.business).get('/credential');
    expect(business.status).toBe(200);
    const keys = (business.body as { apiKey: string }[]).map((c) => c.apiKey).sort();
    expect(keys).toEqual([owner.business.apiKey, owner.merchants[0].apiKey, owner.merchants[1].apiKey].sort());
    const text = JSON.stringify(business.body);
    for (const secret of [owner.business.apiSecret, owner.merchants[0].apiSecret, stranger.business.apiSecret])
      expect(text).not.toContain(secret);
    const merchant = await clientFor(app, owner.merchants[0]).get('/credential');
    expect(merchant.body).toEqual([
      expect.objectContaining({ apiKey: owner.merchants[0].apiKey, merchantId: victimId, usable: true, lastUsedAt: expect.any(String) }),
    ]);
    for (const [, client] of intruders()) {
      const seen = JSON.stringify((await client.get('/credential')).body);
      expect(seen).not.toContain(owner.merchants[0].apiKey);
      expect(seen).not.toContain(owner.business.apiKey);
    }
  });

  it('relating with a foreign merchantId is a 404 too', async () => {
    const processors = (await clientFor(app, stranger.business).get('/business-country-processor')).body;
    const response = await clientFor(app, stranger.business).post('/merchant-country-processor', {
      merchantId: victimId,
      countryProcessorsId: [processors[0].countryProcessor.countryProcessorId],
    });
    expect(response.status).toBe(404);
    expect(response.body.errorId).toBe('Payins:MERCHANT_NOT_FOUND');
  });
});

/** Contract §4 for money after the collection (§19): balances, transactions, settlement accounts, payouts, reconciliation runs. */
describe('tenant isolation of balances, settlement accounts, payouts and reconciliation runs', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let owner: TestTenant;
  let stranger: TestTenant;
  let victimId: string;
  let payoutId: string;
  let runId: string;

  beforeAll(async () => {
    // The payout stays in transit throughout (the sandbox rail would pay it during the checks otherwise).
    bed = await testbed({ merchants: 2, settlement: { sandboxPayoutDelaySeconds: 3600 } });
    ({ app, tenant: owner } = bed);
    stranger = await createTenant(app);
    victimId = owner.merchants[0].merchantId;
    const client = clientFor(app, owner.merchants[0]);
    const brou = ((await client.get('/bank?country=URY')).body as { bankId: string; code: string }[]).find((b) => b.code === '001')!.bankId;
    await client.put(`/merchant/${victimId}/settlement-account/UYU`, {
      bankId: brou,
      accountNumber: '00123456700001',
      accountType: 'SAVINGS',
    });
    await app.get(BalancesService).adjust(victimId as MerchantId, owner.business.businessId, 'UYU' as Currency, 50_000, 'opening balance');
    payoutId = (await client.post(`/merchant/${victimId}/payout`, { currency: 'UYU', amount: 100 })).body.payoutId;
    runId = (await app.get(ReconciliationRunsService).run(victimId as MerchantId, '2026-11-24', '2026-11-24')).runId;
  });
  afterAll(() => bed.close());

  const intruders = (): [string, SignedClient][] => [
    ['another business', clientFor(app, stranger.business)],
    ["another business's merchant", clientFor(app, stranger.merchants[0])],
    ['another merchant of the same business', clientFor(app, owner.merchants[1])],
  ];

  it.each([0, 1, 2])('intruder %#: every route of the money after the collection answers 404 and changes nothing', async (index) => {
    const [, client] = intruders()[index];
    const owned = clientFor(app, owner.business);
    const before = (await owned.get(`/merchant/${victimId}/balance`)).body;
    const attempts = [
      client.get(`/merchant/${victimId}/balance`),
      client.get(`/balance-transaction?merchantId=${victimId}`),
      client.get(`/merchant/${victimId}/settlement-account`),
      client.put(`/merchant/${victimId}/settlement-account/UYU`, {
        bankId: crypto.randomUUID(),
        accountNumber: '00123456700099',
        accountType: 'SAVINGS',
      }),
      client.post(`/merchant/${victimId}/payout`, { currency: 'UYU' }),
      client.get(`/payout/${payoutId}`),
      client.get(`/payout/${payoutId}/transactions`),
      client.post(`/payout/${payoutId}/cancel`),
      client.get(`/payout?merchantId=${victimId}`),
      client.get(`/reconciliation-run/${runId}`),
      client.get(`/reconciliation-run?merchantId=${victimId}`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.body.errorId).toMatch(/^Payins:(MERCHANT|PAYOUT|RECONCILIATION_RUN)_NOT_FOUND$/);
    }
    for (const list of ['/balance-transaction', '/payout', '/reconciliation-run']) {
      const seen = JSON.stringify((await client.get(list)).body);
      expect(seen).not.toContain(victimId);
    }
    expect((await owned.get(`/merchant/${victimId}/balance`)).body).toEqual(before);
    expect((await owned.get(`/payout/${payoutId}`)).body.status).not.toBe('CANCELED');
    expect((await owned.get(`/merchant/${victimId}/settlement-account`)).body[0].accountNumber).toBe('00123456700001');
  });
});

/** Contract §4 for disputes (§21): another tenant's dispute does not exist, whatever it is asked. */
describe('tenant isolation of disputes', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let owner: TestTenant;
  let stranger: TestTenant;
  let victimId: string;
  let disputeId: string;

  beforeAll(async () => {
    bed = await testbed({ merchants: 2, payer: { firstName: 'Ana', lastName: 'Pérez', email: 'ana@example.uy' } });
    ({ app, tenant: owner } = bed);
    stranger = await createTenant(app);
    victimId = owner.merchants[0].merchantId;
    disputeId = await app.get(DisputeReports).openSandbox({ paymentIntentId: await bed.paidIntent(120) });
  });
  afterAll(() => bed.close());

  const intruders = (): [string, SignedClient][] => [
    ['another business', clientFor(app, stranger.business)],
    ["another business's merchant", clientFor(app, stranger.merchants[0])],
    ['another merchant of the same business', clientFor(app, owner.merchants[1])],
  ];

  it.each([0, 1, 2])('intruder %#: every dispute route answers 404 and changes nothing', async (index) => {
    const [, client] = intruders()[index];
    const evidence = multipartBody([{ fileName: 'win.pdf', contentType: 'application/pdf', content: pdfFile() }]);
    const attempts = [
      client.get(`/dispute/${disputeId}`),
      client.upload(`/dispute/${disputeId}/evidence`, evidence.body, evidence.contentType),
      client.post(`/dispute/${disputeId}/submit`),
      client.post(`/dispute/${disputeId}/accept`),
      client.get(`/dispute?merchantId=${victimId}`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.body.errorId).toMatch(/^Payins:(MERCHANT|DISPUTE)_NOT_FOUND$/);
    }
    expect(JSON.stringify((await client.get('/dispute?limit=100')).body)).not.toContain(disputeId);
    const seen = await clientFor(app, owner.business).get(`/dispute/${disputeId}`);
    expect(seen.body).toMatchObject({ status: 'NEEDS_RESPONSE', evidence: [] });
  });

  it('shows the dispute to its business and its merchant', async () => {
    for (const credentials of [owner.business, owner.merchants[0]]) {
      const client = clientFor(app, credentials);
      expect((await client.get(`/dispute/${disputeId}`)).status).toBe(200);
      expect((await client.get('/dispute?limit=100')).body[0].results.map((d: { disputeId: string }) => d.disputeId)).toContain(disputeId);
    }
  });
});
