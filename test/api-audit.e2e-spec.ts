import { NestExpressApplication } from '@nestjs/platform-express';
import { auditKeyOf, dashboardIdentityOn } from '@pcs/dashboard-identity';
import { clientFor, hmacHex, signV3 } from '@pcs/testing';
import * as crypto from 'node:crypto';
import request from 'supertest';
import { startB2bApi } from './payins-app';
import { Testbed, testbed } from './testbed';

const BROU = 'dc53087a-2434-475e-bdcb-ea34a941e862';

type Entry = {
  email: string;
  action: string;
  target: string | null;
  result: string;
  detail: Record<string, unknown>;
  address: string | null;
};

/**
 * Every change made through the APIs is audited (contract §27, PCI DSS
 * 10.2): each mutating request of a verified credential, succeeded or
 * refused, with the credential's key as actor, the route and resource, the
 * result; never a secret or a body. Reads are not; nor is a request whose
 * signature was refused (no actor to name).
 */
describe('the audit of API changes', () => {
  let bed: Testbed;
  let b2b: NestExpressApplication;
  beforeAll(async () => {
    bed = await testbed({});
    b2b = await startB2bApi();
  });
  afterAll(async () => {
    await b2b.close();
    await bed.close();
  });

  /** A B2B payment intent of the first merchant, signed version 1 over its body. */
  const b2bIntent = (externalReference: string) => {
    const merchant = bed.tenant.merchants[0];
    const body = JSON.stringify({
      countryCode: 'URY',
      currency: 'UYU',
      amount: 100,
      externalReference,
      description: 'Audited',
      redirectUrl: 'https://shop.example.uy/return',
    });
    return request(b2b.getHttpServer())
      .post('/payment-intent')
      .set('api-key', merchant.apiKey)
      .set('signature', hmacHex(merchant.apiSecret, body))
      .set('content-type', 'application/json')
      .send(body);
  };
  const entries = async (): Promise<Entry[]> =>
    bed.dataSource.query(
      `SELECT email, action, target, result, detail, address FROM dashboard_audit WHERE business_id = $1 ORDER BY audit_id`,
      [bed.tenant.business.businessId],
    );

  it('records a change, a refused change and a money change with the credential as actor, and never a body or a secret', async () => {
    const merchant = bed.tenant.merchants[0];
    const before = (await entries()).length;
    const created = await bed.merchant.post('/payer', { firstName: 'Audited', lastName: 'Payer', email: 'audited@example.uy' });
    expect(created.status).toBe(200);
    const refused = await bed.merchant.post('/payer', { firstName: null });
    expect(refused.status).toBe(400);
    const account = await bed.merchant.put(`/merchant/${merchant.merchantId}/settlement-account/UYU`, {
      bankId: BROU,
      accountNumber: '00123456700777',
      accountType: 'SAVINGS',
    });
    expect(account.status).toBe(200);
    // Reads, and requests whose signature is refused, are not entries.
    expect((await bed.merchant.get(`/payer/${created.body.payerId as string}`)).status).toBe(200);
    const forged = await request(bed.app.getHttpServer())
      .post('/payer')
      .set('api-key', merchant.apiKey)
      .set('signature', 'f'.repeat(64))
      .set('content-type', 'application/json')
      .send({ firstName: 'Forged' });
    expect(forged.status).toBe(401);

    const added = (await entries()).slice(before);
    expect(added).toHaveLength(3);
    const actor = `api-key:${merchant.apiKey}`;
    expect(added[0]).toMatchObject({
      email: actor,
      action: 'api:POST /payer',
      target: created.body.payerId,
      result: 'succeeded',
      detail: { api: 'Payins', merchantId: merchant.merchantId, status: 200 },
    });
    expect(added[0].address).toMatch(/127\.0\.0\.1/);
    expect(added[1]).toMatchObject({
      email: actor,
      action: 'api:POST /payer',
      result: 'refused',
      detail: { status: 400, errorId: 'Validation:INVALID_REQUEST' },
    });
    expect(added[2]).toMatchObject({
      email: actor,
      action: 'api:PUT /merchant/:merchantId/settlement-account/:currency',
      // The resource the change answered with (the account), its route's parameters beside.
      target: account.body.settlementAccountId,
      result: 'succeeded',
      detail: { params: { merchantId: merchant.merchantId, currency: 'UYU' }, status: 200 },
    });
    // No body: not the payer's name or email, not the account number; no secret.
    const written = JSON.stringify(added);
    for (const secret of ['Audited', 'audited@example.uy', '00123456700777', merchant.apiSecret]) expect(written).not.toContain(secret);
  });

  it('records routes whose action is longer than 64 characters, refused or not, and the entries written beside them', async () => {
    const merchant = bed.tenant.merchants[0];
    const before = (await entries()).length;
    const business = clientFor(bed.app, bed.tenant.business);
    const missing = '00000000-0000-4000-8000-00000000dead';
    const answers = await Promise.all([
      business.patch(`/merchant-country-processor/${missing}`, { active: false }),
      bed.merchant.post(`/merchant/${merchant.merchantId}/settlement-account/UYU/confirm`, { confirmation: 'not.theirs' }),
      bed.merchant.post('/payer', { firstName: 'Beside', lastName: 'Them' }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([404, expect.any(Number), 200]);
    // The API's entries.
    const added = (await entries()).slice(before).filter((entry) => entry.action.startsWith('api:'));
    expect(added.map((entry) => entry.action).sort()).toEqual([
      'api:PATCH /merchant-country-processor/:merchantCountryProcessorId',
      'api:POST /merchant/:merchantId/settlement-account/:currency/confirm',
      'api:POST /payer',
    ]);
    expect(added.find((entry) => entry.action.startsWith('api:PATCH'))).toMatchObject({ result: 'refused', detail: { status: 404 } });
  });

  it('records the changes the signature guard refuses a proved credential (version, replay), never an unproved one', async () => {
    const merchant = bed.tenant.merchants[0];
    const before = (await entries()).length;
    const missing = '00000000-0000-4000-8000-00000000beef';
    // Version 1 on a refund: the key and signature verify, the route needs version 3.
    const body = JSON.stringify({ requestedRefundAmount: 1 });
    const old = await request(bed.app.getHttpServer())
      .post(`/payment-intent/${missing}/refund`)
      .set('api-key', merchant.apiKey)
      .set('signature', hmacHex(merchant.apiSecret, body))
      .set('content-type', 'application/json')
      .send(body);
    expect([old.status, old.body.errorId]).toEqual([401, 'Auth:SIGNATURE_VERSION_REQUIRED']);
    // A version 3 change sent twice: the second is a replay of a proved credential's signature.
    const payer = JSON.stringify({ firstName: 'Replayed', lastName: 'Once' });
    const headers = signV3(merchant, 'POST', '/payer', payer);
    const send = () => request(bed.app.getHttpServer()).post('/payer').set(headers).set('content-type', 'application/json').send(payer);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(401);
    // Unproved: an unknown key, a wrong secret. No entry.
    for (const credentials of [
      { apiKey: 'pk_nobody', apiSecret: merchant.apiSecret },
      { apiKey: merchant.apiKey, apiSecret: 'wrong' },
    ])
      expect(
        (
          await request(bed.app.getHttpServer())
            .post('/payer')
            .set(signV3(credentials, 'POST', '/payer', payer))
            .set('content-type', 'application/json')
            .send(payer)
        ).status,
      ).toBe(401);
    const added = (await entries()).slice(before);
    expect(added.map((entry) => [entry.action, entry.result, entry.detail.status, entry.detail.refusal ?? null])).toEqual([
      ['api:POST /payment-intent/:paymentIntentId/refund', 'refused', 401, 'version-required'],
      ['api:POST /payer', 'succeeded', 200, null],
      ['api:POST /payer', 'refused', 401, 'replay'],
    ]);
    expect(added.every((entry) => entry.email === `api-key:${merchant.apiKey}`)).toBe(true);
  });

  it('keeps every change of one tenant in the audit while another floods it with refusals', async () => {
    const flooder = await bed.newTenant();
    const flood = clientFor(bed.app, flooder.business);
    const merchant = bed.tenant.merchants[0];
    const before = (await entries()).length;
    const refusals = Array.from({ length: 60 }, () => flood.patch(`/merchant-country-processor/${crypto.randomUUID()}`, { active: false }));
    const changes = Array.from({ length: 15 }, (_, i) => bed.merchant.post('/payer', { firstName: `Flooded ${i}`, lastName: 'Neighbour' }));
    const answers = await Promise.all([...refusals, ...changes]);
    expect(answers.slice(0, 60).every((answer) => answer.status === 404)).toBe(true);
    const created = answers.slice(60).map((answer) => answer.body.payerId as string);
    expect(created.every((id) => typeof id === 'string')).toBe(true);
    const added = (await entries()).slice(before);
    expect(
      added
        .filter((entry) => entry.action === 'api:POST /payer')
        .map((entry) => entry.target)
        .sort(),
    ).toEqual([...created].sort());
    const [flooded] = await bed.dataSource.query(
      `SELECT count(*)::int AS n FROM dashboard_audit WHERE business_id = $1 AND action = 'api:PATCH /merchant-country-processor/:merchantCountryProcessorId'`,
      [flooder.business.businessId],
    );
    expect(flooded.n).toBe(60);
    expect(added.every((entry) => entry.email === `api-key:${merchant.apiKey}`)).toBe(true);
  });

  it('writes a change’s entry in the change’s own transaction: an entry the database refuses takes its change with it (503)', async () => {
    const merchant = bed.tenant.merchants[0];
    const businessId = bed.tenant.business.businessId;
    const [{ merchant_name: nameBefore }] = await bed.dataSource.query('SELECT merchant_name FROM merchant WHERE merchant_id = $1', [
      merchant.merchantId,
    ]);
    // For this test, the database refuses this business's entries of two routes (what a full disk or a lost privilege would do).
    await bed.dataSource.query(
      `ALTER TABLE dashboard_audit ADD CONSTRAINT test_refuses_entries
         CHECK (business_id <> '${businessId}' OR action NOT IN ('api:POST /payer', 'api:PATCH /merchant/:merchantId', 'api:POST /payment-intent')) NOT VALID`,
    );
    const intents = async () =>
      (await bed.dataSource.query('SELECT count(*)::int AS n FROM payment_intent WHERE merchant_id = $1', [merchant.merchantId]))[0]
        .n as number;
    const intentsBefore = await intents();
    try {
      // A change whose events are recorded carries its entry in that same statement: refused together.
      const intent = await b2bIntent('unaudited-b2b-1');
      expect(intent.status).toBe(503);
      expect(intent.body).toMatchObject({ errorId: 'B2B:AUDIT_UNAVAILABLE' });
      const created = await bed.merchant.post('/payer', { firstName: 'Unaudited', lastName: 'Payer', email: 'unaudited@example.uy' });
      expect(created.status).toBe(503);
      expect(created.body).toMatchObject({
        errorId: 'Payins:AUDIT_UNAVAILABLE',
        showMessage: { EN: expect.stringContaining('audit log'), ES: expect.stringContaining('auditoría') },
      });
      expect(created.headers['retry-after']).toBe('5');
      const renamed = await bed.merchant.patch(`/merchant/${merchant.merchantId}`, { merchantName: 'Never renamed' });
      expect(renamed.status).toBe(503);
    } finally {
      await bed.dataSource.query('ALTER TABLE dashboard_audit DROP CONSTRAINT test_refuses_entries');
    }
    // No entry, no change.
    expect(
      await bed.dataSource.query(`SELECT payer_id FROM payer WHERE business_id = $1 AND first_name = 'Unaudited'`, [businessId]),
    ).toEqual([]);
    const [{ merchant_name: nameAfter }] = await bed.dataSource.query('SELECT merchant_name FROM merchant WHERE merchant_id = $1', [
      merchant.merchantId,
    ]);
    expect(nameAfter).toBe(nameBefore);
    expect(await intents()).toBe(intentsBefore);
    // The same requests again, the entries accepted: done, each with its entry.
    const before = (await entries()).length;
    expect((await bed.merchant.post('/payer', { firstName: 'Unaudited', lastName: 'Payer', email: 'unaudited@example.uy' })).status).toBe(
      200,
    );
    const added = (await entries()).slice(before);
    expect(added).toEqual([expect.objectContaining({ action: 'api:POST /payer', result: 'succeeded' })]);
  });

  it('records the B2B API’s changes too, and the chain stays whole', async () => {
    const merchant = bed.tenant.merchants[0];
    const before = (await entries()).length;
    const created = await b2bIntent('audited-b2b-1');
    expect(created.status).toBe(200);
    const [entry] = (await entries()).slice(before);
    expect(entry).toMatchObject({ email: `api-key:${merchant.apiKey}`, action: 'api:POST /payment-intent', result: 'succeeded' });
    expect(entry.detail).toMatchObject({ api: 'B2B', status: 200 });
    // The business's own credential is an actor of its own.
    const business = clientFor(bed.app, bed.tenant.business);
    expect((await business.patch(`/merchant/${merchant.merchantId}`, { merchantName: 'Audited shop' })).status).toBe(200);
    expect((await entries()).at(-1)).toMatchObject({
      email: `api-key:${bed.tenant.business.apiKey}`,
      action: 'api:PATCH /merchant/:merchantId',
      detail: { merchantId: null, status: 200 },
    });
    const identity = dashboardIdentityOn(bed.dataSource, null, {
      auditKeys: [auditKeyOf(Buffer.from(process.env.TEST_SECRETS_MASTER_KEY!, 'base64'))],
    });
    // The API's sealer chains every entry off the request path, normally within a second.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const [{ n }] = await bed.dataSource.query('SELECT count(*)::int AS n FROM dashboard_audit WHERE sequence IS NULL');
      if (n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await bed.dataSource.query('SELECT count(*)::int AS n FROM dashboard_audit WHERE sequence IS NULL')).toEqual([{ n: 0 }]);
    expect(await identity.verifyAuditChain(null)).toMatchObject({ ok: true });
  });
});
