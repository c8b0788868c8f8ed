import type { AuditRecord, DashboardIdentity, DashboardUser } from '@pcs/dashboard-identity';
import { recordingResponse } from '@pcs/testing';
import { AuditController } from './audit.controller';
import { PageError } from './web';
import type { DashboardRequest } from './web';

/**
 * The audit log's pages against the dashboard's identity: the business's log
 * only (a person scoped to a merchant is refused before anything is read),
 * each read and export audited first, a page of 50 with the next page's
 * cursor, and the CSV of the whole log in batches, its formula-like text
 * defused. test/dashboard-security.e2e-spec.ts runs them in a browser.
 */
const admin: DashboardUser = { userId: 'u-1', businessId: 'b-1', merchantId: null, email: 'ana@example.uy', role: 'admin' };
const request = (user: DashboardUser) =>
  ({ dashboard: { user, csrfToken: 'csrf' }, ip: '203.0.113.7', header: () => 'en', destroyed: false }) as unknown as DashboardRequest;

const entry = (n: number): AuditRecord =>
  ({
    auditId: String(1000 - n),
    sequence: String(1000 - n),
    at: new Date('2026-11-27T12:00:00Z'),
    email: n === 0 ? '=HYPERLINK("http://x")' : 'ana@example.uy',
    address: '203.0.113.7',
    action: 'sign-in',
    target: null,
    result: 'succeeded',
    detail: {},
  }) as unknown as AuditRecord;

describe('AuditController', () => {
  it('refuses a person scoped to one merchant before reading or auditing anything', async () => {
    const identity = { audit: jest.fn(), auditLog: jest.fn() };
    const controller = new AuditController(identity as unknown as DashboardIdentity);
    const scoped = request({ ...admin, merchantId: 'm-1' });
    await expect(controller.show(scoped, recordingResponse().res, undefined)).rejects.toBeInstanceOf(PageError);
    await expect(controller.export(scoped, recordingResponse().res)).rejects.toMatchObject({ status: 403 });
    expect(identity.audit).not.toHaveBeenCalled();
    expect(identity.auditLog).not.toHaveBeenCalled();
  });

  it('audits the read, then shows 50 entries and the cursor of the next page; a malformed cursor is the first page', async () => {
    const identity = {
      audit: jest.fn().mockResolvedValue(undefined),
      auditLog: jest.fn().mockResolvedValue(Array.from({ length: 51 }, (_, i) => entry(i + 1))),
    };
    const controller = new AuditController(identity as unknown as DashboardIdentity);
    const { res, answer: out } = recordingResponse();
    await controller.show(request(admin), res, '970');
    expect(identity.audit).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'audit:read', detail: { before: '970' }, address: '203.0.113.7' }),
    );
    expect(identity.auditLog).toHaveBeenCalledWith('b-1', { limit: 51, before: '970' });
    expect(out.body).toContain('before=950');
    await controller.show(request(admin), recordingResponse().res, '1 OR 1=1');
    expect(identity.auditLog).toHaveBeenLastCalledWith('b-1', { limit: 51, before: undefined });
  });

  it('exports the whole log in batches of 1,000 as CSV, audited, formula-like text defused', async () => {
    const first = Array.from({ length: 1000 }, (_, i) => entry(i));
    const identity = {
      audit: jest.fn().mockResolvedValue(undefined),
      auditLog: jest
        .fn()
        .mockResolvedValueOnce(first)
        .mockResolvedValueOnce([entry(1001)]),
    };
    const controller = new AuditController(identity as unknown as DashboardIdentity);
    const { res, answer: out } = recordingResponse();
    await controller.export(request(admin), res);
    expect(identity.audit).toHaveBeenCalledWith(expect.objectContaining({ action: 'audit:export' }));
    expect(identity.auditLog.mock.calls).toEqual([
      ['b-1', { limit: 1000, before: undefined }],
      ['b-1', { limit: 1000, before: first[999].auditId }],
    ]);
    expect(out.headers['Content-Type']).toBe('text/csv; charset=utf-8');
    expect(out.chunks).toHaveLength(1 + 1001);
    expect(out.chunks[0]).toBe('sequence,at,email,address,action,target,result,detail\r\n');
    expect(out.chunks[1]).not.toMatch(/(^|,)=HYPERLINK/);
    expect(out.ended).toBe(true);
  });
});
