import { auditKeyOf, DashboardIdentity, dashboardIdentityOn, Role, TOTP_PERIOD_SECONDS, totpCodeOf } from '@pcs/dashboard-identity';
import { SecretBox } from '@pcs/config';
import { CredentialService } from '@pcs/businesses';
import { asBusinessId } from '@pcs/kernel';
import { DASHBOARD_SCOPES } from '../apps/ops/src/demo-seed';
import * as crypto from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { freePort } from '@pcs/database';
import { createDashboard } from '../apps/dashboard/src/dashboard';
import type { DashboardSettings } from '../apps/dashboard/src/settings';
import type { Testbed } from './testbed';
import request from 'supertest';
import { DataSource } from 'typeorm';

/**
 * A person of the dashboard as the tests sign in with (contract §22): their
 * own password (the generated one changed) and an enrolled second factor,
 * both through the identity's real steps, with their recovery codes.
 */
export interface Person {
  readonly userId: string;
  readonly email: string;
  readonly password: string;
  readonly role: Role;
  readonly mfaSecret: string;
  readonly recoveryCodes: string[];
  /** The last time step a code of theirs was used: a code is taken once per step. */
  lastStep: number;
}

/** A restricted credential of the testbed's business for its dashboard, as `credentials:create-restricted` issues one. */
export async function dashboardCredential(bed: Testbed): Promise<{ apiKey: string; apiSecret: string }> {
  return bed.app
    .get(CredentialService)
    .issue({ businessId: asBusinessId(bed.tenant.business.businessId), merchantId: null }, undefined, DASHBOARD_SCOPES);
}

/**
 * The real dashboard serving a testbed's business (a restricted credential of it without
 * `secrets:read`, as deployed, this run's database and master key), listening on a loopback port:
 * the app, its address, and the identity it signs people in with.
 */
export async function listeningDashboard(
  bed: Testbed,
  settings: Partial<DashboardSettings> = {},
): Promise<{ dashboard: NestExpressApplication; base: string; identity: DashboardIdentity; apiKey: string }> {
  const credential = settings.apiKey ? null : await dashboardCredential(bed);
  const dashboard = await createDashboard(
    {
      databaseUrl: process.env.TEST_DATABASE_URL!,
      payinsApiUrl: (await bed.app.getUrl()).replace('[::1]', '127.0.0.1'),
      apiKey: credential?.apiKey ?? bed.tenant.business.apiKey,
      apiSecret: credential?.apiSecret ?? bed.tenant.business.apiSecret,
      trustProxy: false,
      secretsMasterKey: testMasterKey(),
      ...settings,
    },
    'silent',
  );
  const port = await freePort();
  await dashboard.listen(port, '127.0.0.1');
  return {
    dashboard,
    base: `http://127.0.0.1:${port}`,
    identity: testIdentity(bed.dataSource),
    apiKey: credential?.apiKey ?? settings.apiKey ?? bed.tenant.business.apiKey,
  };
}

/** The dashboard identity with the test run's master key, as the dashboard builds it. */
export function testIdentity(dataSource: DataSource): DashboardIdentity {
  return dashboardIdentityOn(dataSource, new SecretBox(testMasterKey()), { auditKeys: [auditKeyOf(testMasterKey())] });
}

export function testMasterKey(): Buffer {
  return Buffer.from(process.env.TEST_SECRETS_MASTER_KEY!, 'base64');
}

const stepOf = (at: number) => Math.floor(at / 1000 / TOTP_PERIOD_SECONDS);

/**
 * The moments whose steps the dashboard accepts now, oldest first: one step of drift either way (second-factor.ts). The step
 * before this one only while this one has more than 5 s left, so that it is still accepted when the request arrives.
 */
function usableSteps(now: number): number[] {
  const period = TOTP_PERIOD_SECONDS * 1000;
  const previous = now % period < period - 5_000 ? [now - period] : [];
  return [...previous, now, now + period];
}

/** Creates a person and takes them through their first sign-in (enrolment, new password) with the identity itself. */
export async function readyPerson(
  identity: DashboardIdentity,
  input: { businessId: string; merchantId?: string | null; role: Role; email?: string },
): Promise<Person> {
  const email = input.email ?? `${input.role}-${crypto.randomUUID().slice(0, 8)}@example.uy`;
  const created = await identity.createUser({
    businessId: input.businessId,
    merchantId: input.merchantId ?? null,
    email,
    role: input.role,
  });
  const address = `192.0.2.${crypto.randomInt(1, 255)}`;
  const first = await identity.signIn(email, created.password, address, input.businessId);
  if (first.outcome !== 'next' || first.session.stage !== 'enrol') throw new Error(`first sign-in: ${first.outcome}`);
  const enrolment = await identity.enrolment(first.token);
  // The step before this one where that is safe (one step of drift is accepted): this step and the next stay free for the test.
  const now = usableSteps(Date.now())[0];
  const enrolled = await identity.confirmEnrolment(first.token, totpCodeOf(enrolment!.secret, now), address);
  if (enrolled.outcome !== 'enrolled') throw new Error(`enrolment: ${enrolled.outcome}`);
  const password = `Clave-${crypto.randomBytes(9).toString('base64url')}-7`;
  const changed = await identity.changePassword(enrolled.token, created.password, password, address);
  if (changed.outcome !== 'changed') throw new Error(`password change: ${JSON.stringify(changed)}`);
  await identity.signOut(changed.token);
  return {
    userId: created.userId,
    email,
    password,
    role: input.role,
    mfaSecret: enrolment!.secret,
    recoveryCodes: enrolled.recoveryCodes,
    lastStep: stepOf(now),
  };
}

/**
 * A code the person may use now: their authenticator's for the step before,
 * this one or the next (one step of drift is accepted), a step not used yet;
 * a recovery code when all were; else the next step, waited for.
 */
export async function codeFor(person: Person): Promise<string> {
  for (;;) {
    const now = Date.now();
    for (const at of usableSteps(now)) {
      if (stepOf(at) > person.lastStep) {
        person.lastStep = stepOf(at);
        return totpCodeOf(person.mfaSecret, at);
      }
    }
    const recovery = person.recoveryCodes.shift();
    if (recovery) return recovery;
    await new Promise((resolve) => setTimeout(resolve, TOTP_PERIOD_SECONDS * 1000 - (now % (TOTP_PERIOD_SECONDS * 1000)) + 50));
  }
}

/** A code of the person's authenticator not used yet (never a recovery code): an accepted step's, or the next after a wait. */
export async function authenticatorCode(person: Person): Promise<string> {
  for (;;) {
    const now = Date.now();
    for (const at of usableSteps(now)) {
      if (stepOf(at) > person.lastStep) {
        person.lastStep = stepOf(at);
        return totpCodeOf(person.mfaSecret, at);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, TOTP_PERIOD_SECONDS * 1000 - (now % (TOTP_PERIOD_SECONDS * 1000)) + 50));
  }
}

/** Signs a person in over HTTP (supertest): the session cookie, and the CSRF token of its forms. */
export async function signInOverHttp(server: Parameters<typeof request>[0], person: Person): Promise<{ cookie: string; csrf: string }> {
  const form = await request(server).get('/sign-in');
  const preCookie = (form.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
  const token = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
  const password = await request(server)
    .post('/sign-in')
    .set('cookie', preCookie)
    .type('form')
    .send({ _csrf: token, email: person.email, password: person.password, next: '/payments' });
  if (password.status !== 303) throw new Error(`sign-in answered ${password.status}`);
  const cookie = (password.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('pcs_dashboard='))!.split(';')[0];
  const codePage = await request(server).get('/sign-in/code').set('cookie', cookie);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(codePage.text)![1];
  const code = await request(server)
    .post('/sign-in/code')
    .set('cookie', cookie)
    .type('form')
    .send({ _csrf: csrf, code: await codeFor(person) });
  if (code.status !== 303) throw new Error(`the code answered ${code.status}`);
  // The session goes on under a new token after the second factor (contract §27), with new form tokens.
  const renewed = (code.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('pcs_dashboard='))!.split(';')[0];
  const page = await request(server).get('/account/password').set('cookie', renewed);
  return { cookie: renewed, csrf: /name="_csrf" value="([^"]+)"/.exec(page.text)![1] };
}
