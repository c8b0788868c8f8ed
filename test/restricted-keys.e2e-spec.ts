import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { CredentialService } from '@pcs/businesses';
import { CREDENTIAL_SCOPE, IS_PUBLIC } from '@pcs/http';
import { asBusinessId, CredentialScope } from '@pcs/kernel';
import { clientFor } from '@pcs/testing';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Testbed, testbed } from './testbed';

const BROU = 'dc53087a-2434-475e-bdcb-ea34a941e862';

/** Every controller class of an API, loaded from its sources. */
async function controllersOf(app: string): Promise<{ file: string; controller: new (...args: never[]) => unknown }[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.controller.ts')) files.push(full);
    }
  };
  walk(path.join(__dirname, '..', 'apps', app, 'src'));
  const found: { file: string; controller: new (...args: never[]) => unknown }[] = [];
  for (const full of files)
    for (const exported of Object.values((await import(full)) as Record<string, unknown>))
      if (typeof exported === 'function' && Reflect.getMetadata(PATH_METADATA, exported) !== undefined)
        found.push({ file: path.relative(path.join(__dirname, '..'), full), controller: exported as new (...args: never[]) => unknown });
  return found;
}

/**
 * Restricted keys (contract §29): a credential limited to scopes — `read`
 * (every GET, never a secret), `payments:write`, `merchants:write`,
 * `money:write`, `secrets:read`. A call outside them is 403 Auth:FORBIDDEN,
 * audited; a credential without `secrets:read` is answered without any
 * apiSecret whatever it sends. Full credentials are as before.
 */
describe('restricted keys', () => {
  let bed: Testbed;
  beforeAll(async () => {
    bed = await testbed({ merchants: 2 });
  });
  afterAll(() => bed.close());

  const restricted = async (...scopes: CredentialScope[]) => {
    const issued = await bed.app
      .get(CredentialService)
      .issue({ businessId: asBusinessId(bed.tenant.business.businessId), merchantId: null }, undefined, scopes);
    return { ...issued, client: clientFor(bed.app, issued) };
  };
  const entriesOf = (apiKey: string): Promise<{ action: string; result: string; detail: Record<string, unknown> }[]> =>
    bed.dataSource.query(`SELECT action, result, detail FROM dashboard_audit WHERE email = $1 ORDER BY audit_id`, [`api-key:${apiKey}`]);

  it('gives every change of both APIs a scope, so that no route is open to every restricted key or to none by mistake', async () => {
    const unscoped: string[] = [];
    let changes = 0;
    for (const app of ['payins-api', 'b2b-api'])
      for (const { file, controller } of await controllersOf(app)) {
        if (Reflect.getMetadata(IS_PUBLIC, controller)) continue;
        const prototype = controller.prototype as Record<string, unknown>;
        for (const name of Object.getOwnPropertyNames(prototype)) {
          const handler = prototype[name];
          if (name === 'constructor' || typeof handler !== 'function') continue;
          const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          if (method === undefined || method === RequestMethod.GET || Reflect.getMetadata(IS_PUBLIC, handler)) continue;
          changes++;
          if (!Reflect.getMetadata(CREDENTIAL_SCOPE, handler) && !Reflect.getMetadata(CREDENTIAL_SCOPE, controller))
            unscoped.push(`${file} ${name}`);
        }
      }
    expect(changes).toBeGreaterThan(30);
    expect(unscoped).toEqual([]);
  });

  it('lets a read-only key read, never a secret, and refuses its changes with 403 Auth:FORBIDDEN, audited, nothing done', async () => {
    const { apiKey, client } = await restricted('read');
    const merchants = await client.get('/merchant');
    expect(merchants.status).toBe(200);
    expect(merchants.body[0].results.length).toBe(2);
    // No secret, whatever it sends: the restriction is the server's, not the client's preference.
    expect(merchants.body[0].results.every((m: { apiSecret: unknown }) => m.apiSecret === null)).toBe(true);
    expect(merchants.headers['preference-applied']).toBe('secrets=omit');
    for (const merchant of bed.tenant.merchants) expect(JSON.stringify(merchants.body)).not.toContain(merchant.apiSecret);

    const payers = async () =>
      (await bed.dataSource.query('SELECT count(*)::int AS n FROM payer WHERE business_id = $1', [bed.tenant.business.businessId]))[0].n;
    const before = await payers();
    const created = await client.post('/payer', { firstName: 'Read', lastName: 'Only', email: 'read.only@example.uy' });
    expect(created.status).toBe(403);
    expect(created.body).toMatchObject({
      errorId: 'Auth:FORBIDDEN',
      showMessage: { EN: expect.stringContaining('payments:write'), ES: expect.stringContaining('payments:write') },
    });
    expect(await payers()).toBe(before);
    const renamed = await client.patch(`/merchant/${bed.tenant.merchants[0].merchantId}`, { merchantName: 'Never' });
    expect(renamed.status).toBe(403);
    expect(renamed.body.showMessage.EN).toContain('merchants:write');
    expect(await entriesOf(apiKey)).toEqual([
      expect.objectContaining({
        action: 'api:POST /payer',
        result: 'refused',
        detail: expect.objectContaining({ status: 403, errorId: 'Auth:FORBIDDEN', refusal: 'scope:payments:write' }),
      }),
      expect.objectContaining({
        action: 'api:PATCH /merchant/:merchantId',
        result: 'refused',
        detail: expect.objectContaining({ refusal: 'scope:merchants:write' }),
      }),
    ]);
  });

  it('keeps each write scope to its own routes, and reads to `read`', async () => {
    const payments = await restricted('payments:write');
    const merchantId = bed.tenant.merchants[0].merchantId;
    const payer = { merchantId, firstName: 'Pay', lastName: 'Ments', email: 'payments@example.uy' };
    expect((await payments.client.post('/payer', payer)).status).toBe(200);
    // Without `read` even a GET is refused.
    const listed = await payments.client.get('/payer');
    expect(listed.status).toBe(403);
    expect(listed.body.showMessage.EN).toContain('read');
    const account = { bankId: BROU, accountNumber: '00123456700888', accountType: 'SAVINGS' };
    expect((await payments.client.put(`/merchant/${merchantId}/settlement-account/UYU`, account)).status).toBe(403);

    const money = await restricted('money:write', 'read');
    expect((await money.client.put(`/merchant/${merchantId}/settlement-account/UYU`, account)).status).toBe(200);
    expect((await money.client.post('/webhook-endpoint', { url: 'https://hooks.example.com/money' })).status).toBe(403);

    const merchants = await restricted('merchants:write');
    expect((await merchants.client.post('/webhook-endpoint', { url: 'https://hooks.example.com/merchants' })).status).toBe(200);
    expect((await merchants.client.patch(`/merchant/${merchantId}`, { merchantName: 'Scoped shop' })).status).toBe(200);
    expect((await merchants.client.post('/payer', { ...payer, firstName: 'No' })).status).toBe(403);
  });

  it('shows a merchant’s apiSecret only with `secrets:read`, and to full credentials as before', async () => {
    const reader = await restricted('read', 'secrets:read');
    const shown = await reader.client.get('/merchant');
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).toContain(bed.tenant.merchants[0].apiSecret);
    // The business's full credential: unchanged.
    expect(JSON.stringify((await bed.business.get('/merchant')).body)).toContain(bed.tenant.merchants[0].apiSecret);
  });
});
