import type { DashboardIdentity } from '@pcs/dashboard-identity';
import { recordingResponse } from '@pcs/testing';
import { AuthController } from './auth.controller';
import type { PayinsApi } from './payins-api';
import type { DashboardRequest } from './web';

/**
 * Signing in against the dashboard's identity: a refused password is a 401
 * that names nothing (the same for an unknown person), a throttle or a lock a
 * 429 with Retry-After; a good password sets the session's cookie and goes
 * to the next step, never to another site whatever `next` says; a right
 * second factor renews the session's token. test/dashboard-security.e2e-spec.ts
 * and the identity's integration spec run the whole sign-in.
 */
const request = { ip: '203.0.113.7', secure: false, header: () => 'en', sessionToken: 'token-before' } as unknown as DashboardRequest;

function controllerWith(signIn: unknown, verifyCode?: unknown) {
  const identity = { signIn: jest.fn().mockResolvedValue(signIn), verifyCode: jest.fn().mockResolvedValue(verifyCode) };
  const api = { businessId: jest.fn().mockResolvedValue('b-1') };
  return { controller: new AuthController(identity as unknown as DashboardIdentity, api as unknown as PayinsApi), identity, api };
}

describe('AuthController', () => {
  it('answers a refused password 401 naming nothing, a throttle or lock 429 with Retry-After', async () => {
    for (const [outcome, status, retryAfter] of [
      [{ outcome: 'refused' }, 401, undefined],
      [{ outcome: 'throttled', retryAfterSeconds: 90 }, 429, '90'],
      [{ outcome: 'locked', retryAfterSeconds: 900 }, 429, '900'],
    ] as const) {
      const { controller } = controllerWith(outcome);
      const { res, answer } = recordingResponse();
      await controller.signIn(request, res, { email: 'ana@example.uy', password: 'wrong', _csrf: 'form-token' });
      expect([answer.status, answer.headers['Retry-After'], answer.cookies]).toEqual([status, retryAfter, {}]);
    }
  });

  it('signs in at the business of the dashboard’s credential, sets the session and goes to the next step, only ever on this site', async () => {
    const { controller, identity, api } = controllerWith({ outcome: 'next', token: 'session-1', session: { stage: 'code' } });
    for (const next of ['/payments?status=APPROVED', '//evil.example', 'https://evil.example', '/\\evil.example', undefined]) {
      const { res, answer } = recordingResponse();
      await controller.signIn(request, res, { email: 'ana@example.uy', password: 'right', _csrf: 'form-token', next });
      expect(answer.cookies).toEqual({ pcs_dashboard: 'session-1' });
      expect(answer.cleared).toEqual(['pcs_dashboard_sign_in']);
      expect(answer.redirect).toBe(`/sign-in/code?next=${encodeURIComponent(next === '/payments?status=APPROVED' ? next : '/overview')}`);
    }
    expect(identity.signIn).toHaveBeenCalledWith('ana@example.uy', 'right', '203.0.113.7', 'b-1');
    expect(api.businessId).toHaveBeenCalledTimes(1);
  });

  it('renews the session’s token after a right second factor, and refuses a wrong or reused code with 401', async () => {
    const { controller, identity } = controllerWith(undefined, { outcome: 'next', token: 'session-2', session: { stage: 'signed-in' } });
    const withSession = { ...request, dashboard: { csrfToken: 'csrf' } } as unknown as DashboardRequest;
    const renewed = recordingResponse();
    await controller.verifyCode(withSession, renewed.res, { code: '123456', next: '/balance' });
    expect(identity.verifyCode).toHaveBeenCalledWith('token-before', '123456', '203.0.113.7');
    expect([renewed.answer.cookies, renewed.answer.redirect]).toEqual([{ pcs_dashboard: 'session-2' }, '/balance']);
    identity.verifyCode.mockResolvedValue({ outcome: 'refused', reason: 'reused' });
    const refused = recordingResponse();
    await controller.verifyCode(withSession, refused.res, { code: '123456' });
    expect([refused.answer.status, refused.answer.cookies]).toEqual([401, {}]);
  });
});
