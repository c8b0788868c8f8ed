import { HttpTestbed, sharedTestbed } from './shared-testbed';

/** A merchant's Mercado Pago account on the payins API (contract §16). */
describe('Mercado Pago gateway accounts', () => {
  let bed: HttpTestbed;
  let route: string;
  const TOKEN = 'TEST-5417539263426117-112408-8c3d0f2b5e1a4d7e-123456789';
  const SECRET = 'whsec-of-the-merchant-app-7c1f';

  beforeAll(async () => {
    bed = await sharedTestbed({ merchants: 2 });
    route = `/merchant/${bed.tenant.merchants[0].merchantId}/gateway-account/mercado-pago`;
  });
  afterAll(() => bed.close());
  afterEach(() => bed.business.delete(route));

  it('connects an account, shows it without its secrets, keeps them sealed, replaces it and removes it', async () => {
    const before = await bed.business.get(route);
    expect(before.status).toBe(404);
    expect(before.body.errorId).toBe('Payins:GATEWAY_ACCOUNT_NOT_FOUND');
    expect(before.body.showMessage.ES).toContain('Mercado Pago');

    const connected = await bed.business.put(route, { accessToken: TOKEN, webhookSecret: SECRET });
    expect(connected.status).toBe(200);
    expect(connected.body).toEqual({
      provider: 'MERCADO_PAGO',
      merchantId: bed.tenant.merchants[0].merchantId,
      paymentMethods: ['MERCADO_PAGO'],
      // The merchant's own account unless said otherwise (contract §23).
      fundsFlow: 'MERCHANT',
      accessTokenHint: '…6789',
      // No public key yet (the setup page's card fields need one), no automatic payments (contract §31).
      publicKey: null,
      offSessionEnabled: false,
      createdAt: expect.any(String),
      updatedAt: connected.body.createdAt,
    });
    const shown = await bed.business.get(route);
    expect(shown.body).toEqual(connected.body);
    for (const answer of [connected, shown]) {
      expect(JSON.stringify(answer.body)).not.toContain(TOKEN);
      expect(JSON.stringify(answer.body)).not.toContain(SECRET);
    }
    // At rest: sealed, not the plain text.
    const [row] = await bed.query(`SELECT * FROM gateway_account WHERE merchant_id = $1`, [bed.tenant.merchants[0].merchantId]);
    expect(JSON.stringify(row)).not.toContain(TOKEN.slice(5, 30));
    expect(JSON.stringify(row)).not.toContain(SECRET);
    // One table for every processor (contract §20): each credential sealed under its field's name.
    expect(row.secrets_sealed).toEqual({ accessToken: expect.stringMatching(/^v1:/), webhookSecret: expect.stringMatching(/^v1:/) });

    // The merchant's own credentials replace it: same creation time, new methods, new token.
    const replaced = await bed.merchant.put(route, {
      accessToken: 'APP_USR-1234567890123456-abcd',
      webhookSecret: 'another-secret',
      paymentMethods: ['VISA', 'MERCADO_PAGO', 'VISA'],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      paymentMethods: ['VISA', 'MERCADO_PAGO'],
      accessTokenHint: '…abcd',
      createdAt: connected.body.createdAt,
    });
    expect(Date.parse(replaced.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(connected.body.updatedAt));

    // The business's own account: said once, kept by a replacement that does not mention it, changed only when said.
    const platform = await bed.business.put(route, { accessToken: TOKEN, webhookSecret: SECRET, fundsFlow: 'PLATFORM' });
    expect(platform.body.fundsFlow).toBe('PLATFORM');
    expect((await bed.business.put(route, { accessToken: TOKEN, webhookSecret: SECRET })).body.fundsFlow).toBe('PLATFORM');
    expect((await bed.business.get(route)).body.fundsFlow).toBe('PLATFORM');
    expect((await bed.business.put(route, { accessToken: TOKEN, webhookSecret: SECRET, fundsFlow: 'MERCHANT' })).body.fundsFlow).toBe(
      'MERCHANT',
    );

    // Its settings (contract §31): public, answered in full, kept by a replacement that omits them; refused when malformed.
    const set = await bed.business.put(route, {
      accessToken: TOKEN,
      webhookSecret: SECRET,
      publicKey: 'APP_USR-2f1e0d9c-8b7a-4c5d-9e8f-7a6b5c4d3e2f',
      offSessionEnabled: true,
    });
    expect([set.body.publicKey, set.body.offSessionEnabled]).toEqual(['APP_USR-2f1e0d9c-8b7a-4c5d-9e8f-7a6b5c4d3e2f', true]);
    const kept = await bed.business.put(route, { accessToken: TOKEN, webhookSecret: SECRET, offSessionEnabled: false });
    expect([kept.body.publicKey, kept.body.offSessionEnabled]).toEqual(['APP_USR-2f1e0d9c-8b7a-4c5d-9e8f-7a6b5c4d3e2f', false]);
    for (const wrong of [{ publicKey: 'pk_live_123' }, { publicKey: null }, { offSessionEnabled: 'yes' }]) {
      const refused = await bed.business.put(route, { accessToken: TOKEN, webhookSecret: SECRET, ...wrong });
      expect([refused.status, refused.body.errorId]).toEqual([400, 'Validation:INVALID_REQUEST']);
    }

    const removed = await bed.business.delete(route);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true, merchantId: bed.tenant.merchants[0].merchantId });
    expect((await bed.business.get(route)).status).toBe(404);
    expect((await bed.business.delete(route)).body.errorId).toBe('Payins:GATEWAY_ACCOUNT_NOT_FOUND');
  });

  it('never shows any of a short token', async () => {
    const connected = await bed.business.put(route, { accessToken: 'abcd', webhookSecret: 's' });
    expect(connected.status).toBe(200);
    expect(connected.body.accessTokenHint).toBe('…');
  });

  it.each([
    ['no access token', { webhookSecret: SECRET }, 'accessToken'],
    ['an empty access token', { accessToken: '', webhookSecret: SECRET }, 'accessToken'],
    ['an access token over 256 characters', { accessToken: 'A'.repeat(257), webhookSecret: SECRET }, 'accessToken'],
    ['a control character in the secret', { accessToken: TOKEN, webhookSecret: 'a\nb' }, 'webhookSecret'],
    ['a null secret', { accessToken: TOKEN, webhookSecret: null }, 'webhookSecret'],
    ['an array for a token', { accessToken: [TOKEN], webhookSecret: SECRET }, 'accessToken'],
    ['an unknown method', { accessToken: TOKEN, webhookSecret: SECRET, paymentMethods: ['BITCOIN'] }, 'paymentMethods'],
    ['no methods', { accessToken: TOKEN, webhookSecret: SECRET, paymentMethods: [] }, 'paymentMethods'],
    ['a method the merchant does not offer', { accessToken: TOKEN, webhookSecret: SECRET, paymentMethods: ['PIX'] }, 'paymentMethods'],
    ['an unknown field', { accessToken: TOKEN, webhookSecret: SECRET, sandbox: true }, 'sandbox'],
    ['a funds flow that is neither of the two', { accessToken: TOKEN, webhookSecret: SECRET, fundsFlow: 'BOTH' }, 'fundsFlow'],
    ['a funds flow in lower case', { accessToken: TOKEN, webhookSecret: SECRET, fundsFlow: 'platform' }, 'fundsFlow'],
    ['a null funds flow', { accessToken: TOKEN, webhookSecret: SECRET, fundsFlow: null }, 'fundsFlow'],
    ['an array for a funds flow', { accessToken: TOKEN, webhookSecret: SECRET, fundsFlow: ['PLATFORM'] }, 'fundsFlow'],
  ])('refuses %s with a 400 naming the field, and connects nothing', async (_name, body, field) => {
    const refused = await bed.business.put(route, body);
    expect(refused.status).toBe(400);
    expect(refused.body.errorId).toBe('Validation:INVALID_REQUEST');
    expect(refused.body.message).toContain(field);
    expect(JSON.stringify(refused.body)).not.toContain(TOKEN);
    expect((await bed.business.get(route)).status).toBe(404);
  });

  it("is a 404 for another merchant's credentials and for a malformed or unknown merchant", async () => {
    await bed.business.put(route, { accessToken: TOKEN, webhookSecret: SECRET });
    const sibling = bed.client(bed.tenant.merchants[1]);
    expect((await sibling.get(route)).status).toBe(404);
    expect((await bed.business.get('/merchant/not-a-uuid/gateway-account/mercado-pago')).status).toBe(400);
    const unknown = await bed.business.get(`/merchant/${crypto.randomUUID()}/gateway-account/mercado-pago`);
    expect(unknown.body.errorId).toBe('Payins:MERCHANT_NOT_FOUND');
  });
});
