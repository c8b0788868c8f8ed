import { cbuFrom } from '@pcs/kernel';
import { SignedClient, TestTenant } from '@pcs/testing/http';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

describe('payment intent creation rules, fast intents, ledger filters, isolation', () => {
  let bed: HttpTestbed;
  let tenant: TestTenant;
  let merchant: SignedClient;
  let payerId: string;

  beforeAll(async () => {
    bed = await sharedTestbed({ merchants: 2, payer: { firstName: 'Rule', lastName: 'Checker', email: 'rules@x.uy' } });
    ({ tenant, merchant, payerId } = bed);
  });
  afterAll(() => bed.close());

  const base = () => ({
    currency: 'UYU',
    amount: 100,
    payinType: 'DEFAULT',
    externalReference: 'r',
    payerId,
    offSession: false,
    invoiceNumber: 1,
    country: 'URY',
  });

  describe('create (17)', () => {
    it('validates every field, naming the offending ones', async () => {
      const response = await merchant.post('/payment-intent', {
        amount: '100',
        payinType: 'NORMAL',
        externalReference: 'x'.repeat(129),
        offSession: 'no',
        invoiceNumber: 1.5,
        country: 'BRA',
        tipAmount: -1,
      });
      expect(response.status).toBe(400);
      for (const field of ['currency', 'amount', 'payinType', 'externalReference', 'offSession', 'invoiceNumber', 'country', 'tipAmount'])
        expect(response.body.showMessage.EN).toContain(field);
      expect((await merchant.post('/payment-intent', { ...base(), payerId: undefined })).body.message).toContain('payerId');
    });

    it('applies the money rules: decimals per currency, positive, bounded', async () => {
      for (const [amount, currency] of [
        [10.123, 'UYU'],
        [0, 'UYU'],
        [-3, 'USD'],
        [10_000_000_000, 'UYU'],
      ] as const) {
        const response = await merchant.post('/payment-intent', { ...base(), amount, currency });
        expect(response.status).toBe(400);
        expect(response.body.message).toContain('amount');
      }
      const clp = await merchant.post('/payment-intent', { ...base(), currency: 'CLP', amount: 100 });
      expect(clp.body.errorId).toBe('Payins:CURRENCY_NOT_ACCEPTED');
    });

    it("splits VAT from the request, the merchant's configuration or the country's default, refusing rates the country does not allow", async () => {
      const withTip = await merchant.post('/payment-intent', { ...base(), amount: 110, tipAmount: 5.5, vatPercentage: 10 });
      expect(withTip.body.paymentIntent).toMatchObject({ subtotalAmount: 100, taxAmount: 10, tipAmount: 5.5, totalAmount: 115.5 });
      const byDefault = await merchant.post('/payment-intent', { ...base(), amount: 122 });
      expect(byDefault.body.paymentIntent).toMatchObject({ taxAmount: 22, subtotalAmount: 100 });
      await bed.client(tenant.business).put(`/merchant/${tenant.merchants[0].merchantId}/configuration`, {
        merchantCountryConfigurations: [{ countryIsoAlpha3: 'URY', vatPercentage: 0 }],
      });
      expect((await merchant.post('/payment-intent', { ...base(), amount: 122 })).body.paymentIntent.taxAmount).toBe(0);
      const usd = await merchant.post('/payment-intent', { ...base(), currency: 'USD', amount: 10.99, vatPercentage: 22 });
      expect(usd.body.paymentIntent).toMatchObject({ taxAmount: 1.98, subtotalAmount: 9.01 });
      const bad = await merchant.post('/payment-intent', { ...base(), vatPercentage: 21 });
      expect(bad.status).toBe(400);
      expect(bad.body.errorId).toBe('Payins:VAT_RATE_NOT_ALLOWED');
      expect(bad.body.showMessage.EN).toContain('0, 10, 22');
    });

    it('creates the payer from payerData and the instrument from paymentInstrumentData in one go', async () => {
      const response = await merchant.post('/payment-intent', {
        ...base(),
        payerId: undefined,
        payerData: {
          firstName: 'New',
          lastName: 'Payer',
          documentType: 'IDENTITY_DOCUMENT',
          document: '1.234.567-2',
          email: 'new@payer.uy',
        },
        paymentInstrumentData: { paymentMethodName: 'VISA', paymentInstrumentTypeName: 'DEBIT_CARD' },
        metadata: { limitIssuers: ['BROU'] },
        setupFutureUsage: true,
      });
      expect(response.status).toBe(200);
      const intent = response.body.paymentIntent;
      expect(response.body.status).toBe('REQUIRES_CONFIRMATION');
      expect(intent).toMatchObject({
        setupFutureUsage: 'OFF_SESSION',
        metadata: '{"limitIssuers":["BROU"]}',
        receiptEmail: 'new@payer.uy',
      });
      expect((await merchant.get(`/payer/${intent.payerId}`)).body.documentNumber).toBe('12345672');
      expect((await merchant.get(`/payment-instrument/${intent.paymentInstrumentId}`)).body.payerId).toBe(intent.payerId);
    });

    it('creates nothing when any part fails', async () => {
      const count = async () => Number((await bed.query(`SELECT count(*) AS n FROM payer WHERE email = 'half@payer.uy'`))[0].n);
      const response = await merchant.post('/payment-intent', {
        ...base(),
        payerId: undefined,
        payerData: { firstName: 'Half', email: 'half@payer.uy' },
        paymentInstrumentData: { paymentMethodName: 'PIX' },
      });
      expect(response.status).toBe(400);
      expect(response.body.errorId).toBe('Payins:PAYMENT_METHOD_NOT_AVAILABLE');
      expect(await count()).toBe(0);
    });

    it('only an ACTIVE merchant collects', async () => {
      const pending = await bed.newTenant({ approve: false });
      const client = bed.client(pending.merchants[0]);
      const payer = (await client.post('/payer', { firstName: 'P' })).body.payerId;
      const response = await client.post('/payment-intent', { ...base(), payerId: payer });
      expect(response.status).toBe(409);
      expect(response.body.errorId).toBe('Payins:MERCHANT_NOT_ACTIVE');
    });
  });

  describe('fast payment intents (18)', () => {
    beforeAll(async () => {
      await bed.client(tenant.business).put(`/merchant/${tenant.merchants[1].merchantId}/configuration`, {
        shortName: 'fast-shop',
        fastPaymentsEnabled: true,
        merchantCountryConfigurations: [{ countryIsoAlpha3: 'URY', vatPercentage: 10 }],
      });
    });

    it('finds the merchant by short name and uses its configured VAT for the country', async () => {
      const response = await bed.client(tenant.business).post('/payment-intent/fast', {
        amount: 110,
        currency: 'UYU',
        comment: 'Lunch',
        merchantShortName: 'FAST-SHOP',
        countryCode: 'URY',
        paymentMethodName: 'VISA',
        paymentIntentAdditionalInfo: {
          payerInfo: { dni: '30123456', email: 'payer@x.com' },
          paymentInfo: { cbu: cbuFrom('0110001', '0000000000001'), alias: 'mi.alias.mp' },
        },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        status: 'REQUIRES_PAYMENT_INSTRUMENT',
        paymentIntent: { taxAmount: 10, subtotalAmount: 100, description: 'Lunch', receiptEmail: 'payer@x.com', payerId: null },
      });
      const methods = (
        await bed.client(tenant.business).get(`/payment-intent/${response.body.paymentIntent.paymentIntentId}/payment-methods`)
      ).body;
      expect(
        methods.paymentIntentAvailablePaymentMethods.every(
          (p: { paymentMethod: { paymentMethodName: string } }) => p.paymentMethod.paymentMethodName === 'VISA',
        ),
      ).toBe(true);
    });

    it('checks the additional info for real and needs fast payments enabled', async () => {
      const send = (info: unknown, shortName = 'fast-shop') =>
        bed.client(tenant.business).post('/payment-intent/fast', {
          amount: 10,
          currency: 'UYU',
          merchantShortName: shortName,
          countryCode: 'URY',
          paymentIntentAdditionalInfo: info,
        });
      const badCbu = cbuFrom('0110001', '0000000000001').replace(/.$/, (d) => String((Number(d) + 1) % 10));
      for (const [info, field] of [
        [{ paymentInfo: { cbu: badCbu } }, 'paymentIntentAdditionalInfo.paymentInfo.cbu'],
        [{ paymentInfo: { alias: 'ab' } }, 'paymentIntentAdditionalInfo.paymentInfo.alias'],
        [{ payerInfo: { dni: '123' } }, 'paymentIntentAdditionalInfo.payerInfo.dni'],
        [{ payerInfo: { email: 'nope' } }, 'paymentIntentAdditionalInfo.payerInfo.email'],
      ] as const) {
        const response = await send(info);
        expect(response.status).toBe(400);
        expect(response.body.message).toContain(field);
      }
      const unknown = await send(undefined, 'no-such-shop');
      expect(unknown.status).toBe(404);
      expect(unknown.body.errorId).toBe('Payins:FAST_PAYMENTS_NOT_ENABLED');
      const stranger = await bed.newTenant();
      const foreign = await bed.client(stranger.business).post('/payment-intent/fast', {
        amount: 10,
        currency: 'UYU',
        merchantShortName: 'fast-shop',
        countryCode: 'URY',
      });
      expect(foreign.status).toBe(404);
    });
  });

  describe('payins ledger (36)', () => {
    let ledgerTenant: TestTenant;
    let client: SignedClient;

    beforeAll(async () => {
      ledgerTenant = await bed.newTenant({ merchants: 2 });
      client = bed.client(ledgerTenant.business);
      for (const [index, [amount, currency]] of (
        [
          [100, 'UYU'],
          [250.5, 'UYU'],
          [999.99, 'USD'],
          [100.13, 'UYU'],
        ] as const
      ).entries()) {
        const merchantId = ledgerTenant.merchants[index % 2].merchantId;
        const payer = (await client.post('/payer', { merchantId, firstName: `Ledger${index}` })).body.payerId;
        await client.post('/payment-intent', {
          ...base(),
          merchantId,
          payerId: payer,
          amount,
          currency,
          confirm: true,
          paymentInstrumentData: { paymentMethodName: 'OCA' },
        });
      }
    });

    const list = async (query: string) => (await client.get(`/payin?${query}`)).body[0];
    const amounts = (page: { results: { amount: number }[] }) => page.results.map((r) => r.amount);

    it('filters by status, currency, amount range, merchant and date', async () => {
      expect((await list('')).rowCount).toBe(4);
      expect(amounts(await list('status=REJECTED'))).toEqual([100.13]);
      expect(amounts(await list('currency=USD'))).toEqual([999.99]);
      expect(amounts(await list('currency=UYU&minAmount=100.01&maxAmount=250.5&sort=AMOUNT&order=ASC'))).toEqual([100.13, 250.5]);
      expect(amounts(await list('minAmount=200&sort=AMOUNT&order=DESC'))).toEqual([999.99, 250.5]);
      expect((await list(`merchantId=${ledgerTenant.merchants[1].merchantId}`)).rowCount).toBe(2);
      const today = new Date().toISOString().slice(0, 10);
      expect((await list(`dateFrom=${today}&dateUntil=${today}`)).rowCount).toBe(4);
      expect((await list('dateUntil=2020-01-01')).rowCount).toBe(0);
    });

    it('sorts, orders and pages', async () => {
      expect(amounts(await list('sort=AMOUNT&order=ASC&currency=UYU'))).toEqual([100, 100.13, 250.5]);
      const statuses = (await list('sort=STATUS&order=ASC')).results.map((r: { status: string }) => r.status);
      expect(statuses).toEqual([...statuses].sort());
      const first = await list('limit=3&page=1');
      const second = await list('limit=3&page=2');
      expect(first).toMatchObject({ currentPage: '1', pageSize: '3', rowCount: 4, pageCount: 2 });
      expect(second.results).toHaveLength(1);
      expect(new Set([...first.results, ...second.results].map((r: { transactionId: string }) => r.transactionId)).size).toBe(4);
    });

    it('refuses malformed filters, naming them', async () => {
      for (const [query, field] of [
        ['status=DONE', 'status'],
        ['currency=EUR', 'currency'],
        ['minAmount=abc', 'minAmount'],
        ['dateFrom=yesterday', 'dateFrom'],
        ['sort=NAME', 'sort'],
        ['order=UP', 'order'],
        ['limit=500', 'limit'],
        ['minAmount=10&maxAmount=5', 'minAmount'],
      ]) {
        const response = await client.get(`/payin?${query}`);
        expect(response.status).toBe(400);
        expect(response.body.message).toContain(field);
      }
    });

    it('shows each tenant only its own payins', async () => {
      const own = await list('');
      const otherMerchant = (await bed.client(ledgerTenant.merchants[0]).get('/payin')).body[0];
      expect(otherMerchant.rowCount).toBe(2);
      expect(
        (await bed.client(tenant.business).get('/payin')).body[0].results.map((r: { transactionId: string }) => r.transactionId),
      ).not.toEqual(expect.arrayContaining([own.results[0].transactionId]));
      const foreign = await bed.client(tenant.business).get(`/payin?merchantId=${ledgerTenant.merchants[0].merchantId}`);
      expect(foreign.status).toBe(404);
    });
  });

  it("another tenant's payment intent is a 404 on every route", async () => {
    const intent = (await merchant.post('/payment-intent', base())).body.paymentIntent.paymentIntentId;
    const stranger = await bed.newTenant();
    for (const client of [bed.client(stranger.business), bed.client(tenant.merchants[1])]) {
      for (const response of await Promise.all([
        client.get(`/payment-intent/${intent}`),
        client.get(`/payment-intent/${intent}/payment-methods`),
        client.post(`/payment-intent/${intent}/initialize`, { countryProcessorId: '00000000-0000-4000-8000-000000000000' }),
        client.post(`/payment-intent/${intent}/refund`),
        client.post(`/payment-intent/${intent}/manual-refund`, { status: 'MANUAL_REFUND_PENDING' }),
      ])) {
        expect(response.status).toBe(404);
        expect(response.body.errorId).toBe('Payins:PAYMENT_INTENT_NOT_FOUND');
      }
    }
    const foreignPayer = await bed.client(stranger.merchants[0]).post('/payment-intent', base());
    expect(foreignPayer.status).toBe(404);
    expect(foreignPayer.body.errorId).toBe('Payins:PAYER_NOT_FOUND');
  });
});
