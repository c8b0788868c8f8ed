import { SignedClient, TestTenant } from '@pcs/testing/http';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

/** Contract §4 for payers and instruments: another tenant's are a 404 and stay unchanged. */
describe('payer and instrument isolation', () => {
  let bed: HttpTestbed;
  let owner: TestTenant;
  let stranger: TestTenant;
  let payerId: string;
  let instrumentId: string;

  beforeAll(async () => {
    bed = await sharedTestbed({ merchants: 2 });
    ({ tenant: owner } = bed);
    stranger = await bed.newTenant();
    const c = bed.client(owner.merchants[0]);
    payerId = (
      await c.post('/payer', { firstName: 'Private', email: 'private@owner.uy', documentType: 'PASSPORT', document: 'PRIV123456' })
    ).body.payerId;
    instrumentId = (await c.post('/payment-instrument', { payerId, paymentMethodName: 'VISA', country: 'URY' })).body.paymentInstrumentId;
  });
  afterAll(() => bed.close());

  const intruders = (): [string, () => SignedClient][] => [
    ['another business', () => bed.client(stranger.business)],
    ["another business's merchant", () => bed.client(stranger.merchants[0])],
    ['another merchant of the same business', () => bed.client(owner.merchants[1])],
  ];

  it.each([0, 1, 2])('intruder %#: every payer and instrument route answers 404 and changes nothing', async (index) => {
    const client = intruders()[index][1]();
    const attempts = await Promise.all([
      client.get(`/payer/${payerId}`),
      client.patch(`/payer/${payerId}`, { email: 'stolen@x.com' }),
      client.delete(`/payer/${payerId}`),
      client.get(`/payer/${payerId}/payment-instruments`),
      client.get(`/payment-instrument/payer/${payerId}`),
      client.get(`/payment-instrument/${instrumentId}`),
      client.post('/payment-instrument', { payerId, paymentMethodName: 'VISA', country: 'URY' }),
      client.post('/payment-instrument', { payerId, paymentMethodName: 'VISA', country: 'URY', payerData: { lastName: 'Hijacked' } }),
    ]);
    for (const response of attempts) {
      expect(response.status).toBe(404);
      expect(response.body.errorId).toMatch(/^Payins:(PAYER|PAYMENT_INSTRUMENT)_NOT_FOUND$/);
    }
    const payers = (await client.get('/payer?searchTerm=private')).body[0];
    expect(payers.rowCount).toBe(0);
    expect((await client.get('/payment-instrument')).body.map((i: { paymentInstrumentId: string }) => i.paymentInstrumentId)).not.toContain(
      instrumentId,
    );
    // Naming the owner's merchant reads as nothing: another tenant's filter narrows the caller's scope, never widens it.
    expect((await client.get(`/payment-instrument?merchantId=${owner.merchants[0].merchantId}`)).body).toEqual([]);
    expect((await client.post('/payer', { merchantId: owner.merchants[0].merchantId, firstName: 'Planted' })).status).toBe(404);

    const after = await bed.client(owner.merchants[0]).get(`/payer/${payerId}`);
    expect(after.body).toMatchObject({ email: 'private@owner.uy', lastName: null });
    expect((await bed.client(owner.merchants[0]).get(`/payer/${payerId}/payment-instruments`)).body).toHaveLength(1);
  });

  it("the owning business sees its merchants' payers; a document may repeat across businesses", async () => {
    expect((await bed.client(owner.business).get(`/payer/${payerId}`)).status).toBe(200);
    const same = await bed.client(stranger.merchants[0]).post('/payer', { documentType: 'PASSPORT', document: 'PRIV123456' });
    expect(same.status).toBe(200);
  });
});
