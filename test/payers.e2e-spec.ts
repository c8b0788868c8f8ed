import { SignedClient, TestTenant } from '@pcs/testing/http';
import * as crypto from 'node:crypto';
import { HttpTestbed, sharedTestbed } from './shared-testbed';

describe('payers (operations 11–15)', () => {
  let bed: HttpTestbed;
  let tenant: TestTenant;
  let merchant: SignedClient;
  let business: SignedClient;

  beforeAll(async () => {
    bed = await sharedTestbed({ merchants: 2 });
    ({ tenant, merchant, business } = bed);
  });
  afterAll(() => bed.close());

  const countryId = async (iso3: string) =>
    (await bed.query('SELECT country_id FROM country WHERE iso3 = $1', [iso3]))[0].country_id as string;

  it('creates a payer with a Uruguayan cédula (country from the merchant), normalising what it stores', async () => {
    const response = await merchant.post('/payer', {
      firstName: ' José ',
      lastName: 'Pérez',
      documentType: 'IDENTITY_DOCUMENT',
      document: '1.234.567-2',
      email: 'Jose.Perez@Example.com',
      phone: '+59899123456',
      address: { countryId: await countryId('URY'), city: 'Montevideo', street: 'Av. 18 de Julio', doorNumber: '1234' },
      deviceFingerprint: 'fp-123',
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      payerId: expect.any(String),
      externalId: null,
      firstName: 'José',
      lastName: 'Pérez',
      documentType: 'IDENTITY_DOCUMENT',
      documentNumber: '12345672',
      email: 'jose.perez@example.com',
      phone: '+59899123456',
      address: { country: await countryId('URY'), city: 'Montevideo', street: 'Av. 18 de Julio', doorNumber: '1234' },
      businessId: tenant.business.businessId,
      merchantId: tenant.merchants[0].merchantId,
    });
  });

  it('checks documents for their type and country', async () => {
    const wrongDigit = await merchant.post('/payer', { documentType: 'IDENTITY_DOCUMENT', document: '1.234.567-3' });
    expect(wrongDigit.status).toBe(400);
    expect(wrongDigit.body.errorId).toBe('Validation:INVALID_REQUEST');
    expect(wrongDigit.body.message).toContain('check digit');
    expect(wrongDigit.body.showMessage.EN).toContain('document');

    expect((await merchant.post('/payer', { documentType: 'DNI', document: '30.123.456', country: 'ARG' })).body.documentNumber).toBe(
      '30123456',
    );
    expect((await merchant.post('/payer', { documentType: 'IDENTITY_DOCUMENT', document: '27123456', country: 'ARG' })).status).toBe(200);
    expect((await merchant.post('/payer', { documentType: 'DNI', document: '123456' })).status).toBe(400);
    expect((await merchant.post('/payer', { documentType: 'PASSPORT', document: 'ab1234567' })).body.documentNumber).toBe('AB1234567');
    expect((await merchant.post('/payer', { documentType: 'PASSPORT', document: 'AB12' })).status).toBe(400);
    const half = await merchant.post('/payer', { document: '12345672' });
    expect(half.status).toBe(400);
    expect(half.body.message).toContain('documentType');
    const brazil = await merchant.post('/payer', { country: 'BRA' });
    expect(brazil.status).toBe(400);
    expect(brazil.body.message).toContain('country');
  });

  it('enforces the limits and formats, naming each field', async () => {
    const response = await merchant.post('/payer', {
      firstName: 'x'.repeat(129),
      lastName: 'y'.repeat(129),
      email: 'nope',
      phone: '099-123-456',
      document: 'd'.repeat(129),
      documentType: 'PASSPORT',
    });
    expect(response.status).toBe(400);
    for (const field of ['firstName', 'lastName', 'email', 'phone', 'document']) expect(response.body.showMessage.EN).toContain(field);
    const address = await merchant.post('/payer', { address: { country: crypto.randomUUID() } });
    expect(address.status).toBe(400);
    expect(address.body.message).toContain('address.country');
    const conflicting = await merchant.post('/payer', { address: { country: await countryId('URY'), countryId: await countryId('ARG') } });
    expect(conflicting.status).toBe(400);
    expect(conflicting.body.message).toContain('address.countryId');
  });

  it('refuses a second payer with the same document for the same merchant, naming the first', async () => {
    const first = await merchant.post('/payer', { documentType: 'DNI', document: '40111222', country: 'ARG' });
    const again = await merchant.post('/payer', { documentType: 'DNI', document: '40.111.222', country: 'ARG' });
    expect(again.status).toBe(409);
    expect(again.body.errorId).toBe('Payins:PAYER_ALREADY_EXISTS');
    expect(again.body.message).toContain(first.body.payerId);
    expect(again.body.showMessage.ES).toContain(first.body.payerId);
    const otherMerchant = await bed.client(tenant.merchants[1]).post('/payer', {
      documentType: 'DNI',
      document: '40111222',
      country: 'ARG',
    });
    expect(otherMerchant.status).toBe(200);
  });

  it('a burst of identical creations yields one payer and conflicts for the rest', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => merchant.post('/payer', { documentType: 'PASSPORT', document: 'RACE12345' })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(7);
  });

  it('gets and updates a payer', async () => {
    const created = (await merchant.post('/payer', { firstName: 'Ana' })).body;
    const external = crypto.randomUUID();
    const updated = await merchant.patch(`/payer/${created.payerId}`, {
      merchantExternalId: external,
      email: 'ANA@x.com',
      phone: '59899000000',
      address: { city: 'Salto' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      externalId: external,
      email: 'ana@x.com',
      phone: '59899000000',
      address: { city: 'Salto' },
      firstName: 'Ana',
    });
    expect((await merchant.get(`/payer/${created.payerId}`)).body).toEqual(updated.body);
    expect((await merchant.patch(`/payer/${created.payerId}`, { firstName: 'Not updatable' })).status).toBe(400);
  });

  it('lists payers paged, searching names, email and document without case or accents', async () => {
    const c = bed.client(tenant.merchants[1]);
    await c.post('/payer', { firstName: 'Müller', lastName: 'Ñandú', email: 'zeta@search.uy' });
    await c.post('/payer', { firstName: 'Ramón', lastName: 'Álvarez', documentType: 'PASSPORT', document: 'SRCH998877' });
    await c.post('/payer', { firstName: 'Percent%', lastName: 'Under_score' });
    const search = async (term: string) => (await c.get(`/payer?searchTerm=${encodeURIComponent(term)}`)).body[0];
    expect((await search('nandu')).results.map((p: { lastName: string }) => p.lastName)).toEqual(['Ñandú']);
    expect((await search('MULLER')).rowCount).toBe(1);
    expect((await search('ramon alvarez')).results[0].documentNumber).toBe('SRCH998877');
    expect((await search('srch9988')).rowCount).toBe(1);
    expect((await search('ZETA@SEARCH')).rowCount).toBe(1);
    expect((await search('%')).rowCount).toBe(1);
    expect((await search('nobody-like-this')).rowCount).toBe(0);

    const page = (await c.get('/payer?page=1&limit=2')).body[0];
    expect(page).toMatchObject({ currentPage: '1', pageSize: '2', pageCount: Math.ceil(page.rowCount / 2) });
    expect(page.results).toHaveLength(2);
    const second = (await c.get('/payer?page=2&limit=2')).body[0];
    expect(second.results[0].payerId).not.toBe(page.results[0].payerId);

    const all = (await business.get(`/payer?merchantId=${tenant.merchants[1].merchantId}&limit=100`)).body[0];
    expect(all.results.every((p: { merchantId: string }) => p.merchantId === tenant.merchants[1].merchantId)).toBe(true);
  });

  describe('delete (15)', () => {
    const openIntentFor = async (payerId: string, status: string) => {
      const id = crypto.randomUUID();
      // A payment intent row as the payments context writes it.
      await bed.query(
        `INSERT INTO payment_intent (payment_intent_id, business_id, merchant_id, payer_id, country_id, origin, payin_type, status, currency, amount, tax_amount, vat_rate_bp)
         VALUES ($1, $2, $3, $4, $5, 'API', 'DEFAULT', $6, 'UYU', 12200, 2200, 2200)`,
        [id, tenant.business.businessId, tenant.merchants[0].merchantId, payerId, await countryId('URY'), status],
      );
      return id;
    };

    it('is refused while a payment intent is not final, then soft-deletes and keeps the records', async () => {
      const payer = (await merchant.post('/payer', { firstName: 'Owes', lastName: 'Money' })).body;
      const intent = await openIntentFor(payer.payerId, 'REQUIRES_ACTION');
      const refused = await merchant.delete(`/payer/${payer.payerId}`);
      expect(refused.status).toBe(400);
      expect(refused.body.errorId).toBe('Payins:ERROR_IN_DELETE_PAYER');
      expect(refused.body.showMessage.ES).toContain('no han finalizado');
      expect((await merchant.get(`/payer/${payer.payerId}`)).status).toBe(200);

      await bed.query(`UPDATE payment_intent SET status = 'SUCCEEDED' WHERE payment_intent_id = $1`, [intent]);
      const deleted = await merchant.delete(`/payer/${payer.payerId}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ success: true, id: payer.payerId });

      for (const response of [
        await merchant.get(`/payer/${payer.payerId}`),
        await merchant.patch(`/payer/${payer.payerId}`, { email: 'a@b.co' }),
        await merchant.delete(`/payer/${payer.payerId}`),
        await merchant.get(`/payer/${payer.payerId}/payment-instruments`),
        await merchant.get(`/payment-instrument/payer/${payer.payerId}`),
        await merchant.post('/payment-instrument', { payerId: payer.payerId, paymentMethodName: 'VISA', country: 'URY' }),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body.errorId).toBe('Payins:PAYER_NOT_FOUND');
      }
      expect((await merchant.get('/payer?searchTerm=owes')).body[0].rowCount).toBe(0);
      const [row] = await bed.query('SELECT payer_id FROM payment_intent WHERE payment_intent_id = $1', [intent]);
      expect(row.payer_id).toBe(payer.payerId);
    });

    it('answers a malformed id with its fixed errorId', async () => {
      const response = await merchant.delete('/payer/not-a-uuid');
      expect(response.status).toBe(400);
      expect(response.body.errorId).toBe('Payins:ERROR_IN_DELETE_PAYER');
      expect(response.body.message).toContain('payerId');
    });
  });
});
