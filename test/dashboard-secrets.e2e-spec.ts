import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { clientFor } from '@pcs/testing';
import { dashboardCredential, listeningDashboard, readyPerson, signInOverHttp, testIdentity } from './dashboard-people';
import { Testbed, testbed } from './testbed';

/**
 * The dashboard holds no merchant's secret (contract §27): it calls the
 * payins API with its business credential only, every request with
 * `Prefer: secrets=omit`, and no answer it receives carries a merchant's
 * apiSecret, whatever page a person opens.
 */
describe('the dashboard never receives a merchant’s secret', () => {
  let bed: Testbed;
  let dashboard: NestExpressApplication;
  const answers: { prefer: string | null; body: string }[] = [];

  beforeAll(async () => {
    bed = await testbed({ merchants: 2, payer: { firstName: 'Sin', lastName: 'Secretos' } });
    const recording = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const sent = new Request(input, init);
      const answer = await fetch(sent);
      answers.push({ prefer: sent.headers.get('prefer'), body: await answer.clone().text() });
      return answer;
    };
    ({ dashboard } = await listeningDashboard(bed, { fetch: recording }));
  });
  afterAll(async () => {
    await dashboard.close();
    await bed.close();
  });

  it('asks every answer without secrets, and no page brings one in', async () => {
    const person = await readyPerson(testIdentity(bed.dataSource), { businessId: bed.tenant.business.businessId, role: 'admin' });
    const server = dashboard.getHttpServer();
    const { cookie } = await signInOverHttp(server, person);
    for (const page of [
      '/overview',
      '/payments',
      '/merchants',
      '/payers',
      '/links',
      '/balance',
      '/payouts',
      '/disputes',
      '/webhooks',
      '/team',
    ]) {
      const answer = await request(server).get(page).set('cookie', cookie);
      expect([page, answer.status]).toEqual([page, 200]);
    }
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.every((a) => a.prefer === 'secrets=omit')).toBe(true);
    const received = answers.map((a) => a.body).join('\n');
    // The merchants were read (their keys are there), their secrets were not.
    for (const merchant of bed.tenant.merchants) {
      expect(received).toContain(merchant.merchantId);
      expect(received).not.toContain(merchant.apiSecret);
    }
    expect(received).not.toContain(bed.tenant.business.apiSecret);
    // Without the preference, the owning business is shown them (the specification's representation): the test can fail.
    const plain = await bed.business.get('/merchant');
    expect(JSON.stringify(plain.body)).toContain(bed.tenant.merchants[0].apiSecret);
    const omitted = await bed.business.get('/merchant').set('prefer', 'secrets=omit');
    expect(omitted.headers['preference-applied']).toBe('secrets=omit');
    expect(JSON.stringify(omitted.body)).not.toContain(bed.tenant.merchants[0].apiSecret);
    expect(omitted.body[0].results[0].apiKey).toEqual(expect.any(String));
    expect(omitted.body[0].results[0].apiSecret).toBeNull();
  }, 120_000);

  it('runs on a restricted credential without secrets:read, which the API refuses every secret whatever it sends (contract §29)', async () => {
    const credential = await dashboardCredential(bed);
    const asDashboard = clientFor(bed.app, credential);
    for (const prefer of [undefined, 'secrets=include', 'return=representation']) {
      const call = asDashboard.get('/merchant');
      const answer = prefer ? await call.set('prefer', prefer) : await call;
      expect(answer.status).toBe(200);
      expect(answer.headers['preference-applied']).toBe('secrets=omit');
      expect(answer.body[0].results.map((m: { apiSecret: unknown }) => m.apiSecret)).toEqual([null, null]);
    }
    // It still does what the dashboard does: a change within its scopes.
    const merchantId = bed.tenant.merchants[0].merchantId;
    expect((await asDashboard.patch(`/merchant/${merchantId}`, { merchantName: 'Renamed from the dashboard' })).status).toBe(200);
  });
});
