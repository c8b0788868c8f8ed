import { IdentityError } from '@pcs/dashboard-identity';
import type { DashboardIdentity, DashboardUser } from '@pcs/dashboard-identity';
import { recordingResponse } from '@pcs/testing';
import type { PayinsApi } from './payins-api';
import { TeamController } from './team.controller';
import type { DashboardRequest } from './web';

/**
 * The team page against the dashboard's identity: an admin of the whole
 * business only; another person of the business only (never themselves,
 * never another business's: 404); another admin's password or second factor
 * never reset here (403, the operator's command); the last enabled admin never
 * disabled or demoted (409, audited as refused); a new person's password shown
 * once, on the answer, never in the audit. test/dashboard-security.e2e-spec.ts
 * runs the page in a browser.
 */
const admin: DashboardUser = {
  userId: '11111111-1111-4111-8111-111111111111',
  businessId: 'b-1',
  merchantId: null,
  email: 'ana@example.uy',
  role: 'admin',
};
const other = { userId: '22222222-2222-4222-8222-222222222222', email: 'luis@example.uy', role: 'operator' };
const otherAdmin = { userId: '33333333-3333-4333-8333-333333333333', email: 'eva@example.uy', role: 'admin' };
const recentlyDemoted = { userId: '55555555-5555-4555-8555-555555555555', email: 'leo@example.uy', role: 'operator' };
const requestOf = (user: DashboardUser) =>
  ({ dashboard: { user, csrfToken: 'csrf' }, ip: '203.0.113.7', header: () => 'en' }) as unknown as DashboardRequest;

function controllerWith() {
  const people = new Map([other, otherAdmin, recentlyDemoted].map((p) => [p.userId, p]));
  const identity = {
    usersOf: jest.fn().mockResolvedValue([]),
    memberOf: jest.fn((_business: string, id: string) => Promise.resolve(people.get(id) ?? null)),
    anyMemberOf: jest.fn((_business: string, id: string) => Promise.resolve(people.get(id) ?? null)),
    createUser: jest.fn().mockResolvedValue({ ...other, password: 'Generated-pass-1234' }),
    resetPasswordOf: jest.fn().mockResolvedValue({ email: other.email, password: 'Reset-pass-5678' }),
    resetSecondFactor: jest.fn().mockResolvedValue(undefined),
    unlock: jest.fn().mockResolvedValue(undefined),
    changeStanding: jest.fn().mockResolvedValue(undefined),
    audit: jest.fn().mockResolvedValue(undefined),
    // An admin, or one demoted less than 30 days ago (recentlyDemoted): the operator's to reset.
    isOrWasAdmin: jest.fn((id: string) => Promise.resolve(id === otherAdmin.userId || id === recentlyDemoted.userId)),
    // The acting admin's fresh code: 123456 here.
    confirmAsAdmin: jest.fn((input: { code: string }) => Promise.resolve(input.code === '123456' ? admin : null)),
  };
  const api = { merchants: jest.fn().mockResolvedValue([]), credentials: jest.fn().mockResolvedValue([]) };
  return { controller: new TeamController(api as unknown as PayinsApi, identity as unknown as DashboardIdentity), identity };
}

describe('TeamController', () => {
  it('refuses a person of one merchant, and acts only on another person of the business', async () => {
    const { controller, identity } = controllerWith();
    await expect(controller.show(requestOf({ ...admin, merchantId: 'm-1' }), recordingResponse().res)).rejects.toMatchObject({
      status: 403,
    });
    for (const id of [admin.userId, 'not-a-uuid', '44444444-4444-4444-8444-444444444444'])
      await expect(controller.disable(requestOf(admin), recordingResponse().res, id)).rejects.toMatchObject({ status: 404 });
    expect(identity.changeStanding).not.toHaveBeenCalled();
  });

  it('adds a person and shows the password once, on the answer, never in the audit', async () => {
    const { controller, identity } = controllerWith();
    const { res, answer } = recordingResponse();
    await controller.add(requestOf(admin), res, { email: ' luis@example.uy ', role: 'operator', merchantId: '' });
    expect(identity.createUser).toHaveBeenCalledWith({ businessId: 'b-1', merchantId: null, email: 'luis@example.uy', role: 'operator' });
    expect(answer.body).toContain('Generated-pass-1234');
    expect(JSON.stringify(identity.audit.mock.calls)).not.toContain('Generated-pass-1234');
    await expect(controller.add(requestOf(admin), recordingResponse().res, { email: 'x@example.uy', role: 'owner' })).rejects.toMatchObject(
      {
        status: 400,
      },
    );
  });

  it('never resets another admin’s password or second factor here (403, audited as refused)', async () => {
    const { controller, identity } = controllerWith();
    for (const route of ['reset', 'resetMfa'] as const) {
      const { res, answer } = recordingResponse();
      await controller[route](requestOf(admin), res, otherAdmin.userId);
      expect(answer.status).toBe(403);
    }
    // Nor of one who stopped being an admin within 30 days (contract §30: demote, reset, sign in as them, promote back).
    for (const route of ['reset', 'resetMfa'] as const) {
      const { res, answer } = recordingResponse();
      await controller[route](requestOf(admin), res, recentlyDemoted.userId);
      expect(answer.status).toBe(403);
    }
    expect(identity.resetPasswordOf).not.toHaveBeenCalled();
    expect(identity.resetSecondFactor).not.toHaveBeenCalled();
    expect(identity.audit.mock.calls.map(([e]) => (e as { result: string; detail: unknown }).detail)).toEqual([
      { reason: 'admin-on-admin' },
      { reason: 'admin-on-admin' },
      { reason: 'admin-on-admin' },
      { reason: 'admin-on-admin' },
    ]);
    const { res, answer } = recordingResponse();
    await controller.reset(requestOf(admin), res, other.userId);
    expect(answer.body).toContain('Reset-pass-5678');
  });

  it('keeps the last enabled admin: a refused change of standing is a 409, audited as refused', async () => {
    const { controller, identity } = controllerWith();
    identity.changeStanding.mockRejectedValueOnce(new IdentityError('the last enabled admin of the business'));
    const { res, answer } = recordingResponse();
    await controller.role(requestOf(admin), res, otherAdmin.userId, { role: 'viewer', code: '123 456' });
    expect(answer.status).toBe(409);
    expect(identity.audit).toHaveBeenCalledWith(
      expect.objectContaining({
        action: 'user:set-role',
        result: 'refused',
        detail: { role: 'viewer', reason: 'the last enabled admin of the business' },
      }),
    );
    await controller.disable(requestOf(admin), recordingResponse().res, other.userId);
    expect(identity.changeStanding).toHaveBeenLastCalledWith(other.userId, { disabled: true });
    expect(identity.audit).toHaveBeenLastCalledWith(expect.objectContaining({ action: 'user:disable', result: 'succeeded' }));
  });

  it('disables or demotes an admin only with the acting admin’s fresh code (contract §30); anyone else without', async () => {
    const { controller, identity } = controllerWith();
    for (const code of [undefined, '', '000000']) {
      const demote = recordingResponse();
      await controller.role(requestOf(admin), demote.res, otherAdmin.userId, { role: 'viewer', code });
      expect(demote.answer.status).toBe(403);
      const disable = recordingResponse();
      const request = { ...requestOf(admin), body: { code } } as unknown as DashboardRequest;
      await controller.disable(request, disable.res, otherAdmin.userId);
      expect(disable.answer.status).toBe(403);
    }
    expect(identity.changeStanding).not.toHaveBeenCalled();
    expect(identity.confirmAsAdmin).toHaveBeenCalledWith(
      expect.objectContaining({ email: admin.email, action: 'user:set-role', target: otherAdmin.email, address: '203.0.113.7' }),
    );
    await controller.role(requestOf(admin), recordingResponse().res, otherAdmin.userId, { role: 'viewer', code: '123456' });
    expect(identity.changeStanding).toHaveBeenLastCalledWith(otherAdmin.userId, { role: 'viewer' });
    // Another's role changes as before, without a code.
    identity.confirmAsAdmin.mockClear();
    await controller.role(requestOf(admin), recordingResponse().res, other.userId, { role: 'viewer' });
    expect(identity.changeStanding).toHaveBeenLastCalledWith(other.userId, { role: 'viewer' });
    expect(identity.confirmAsAdmin).not.toHaveBeenCalled();
  });
});
