import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import { csvLine } from '@pcs/pages';
import type { Response } from 'express';
import { auditPage } from './pages/audit';
import { DASHBOARD_HEADERS } from './pages/layout';
import type { DashboardRequest } from './web';
import { actorOf, languageOf, PageError, Requires } from './web';

const PAGE_SIZE = 50;
const EXPORT_BATCH = 1000;
const CSV_COLUMNS = ['sequence', 'at', 'email', 'address', 'action', 'target', 'result', 'detail'];

/**
 * The audit log of the business (admins alone, contract §22): every sign-in
 * and change, who, from where, what, when and with what result; and its CSV.
 * Reading and exporting it are audited too. Nothing here edits or deletes an
 * entry: nothing anywhere does (the database refuses it).
 */
@Controller('audit')
export class AuditController {
  constructor(private readonly identity: DashboardIdentity) {}

  @Get()
  @Requires('read-audit', 'audit:read')
  async show(@Req() request: DashboardRequest, @Res() response: Response, @Query('before') before: unknown): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    // The log is the business's: a person scoped to one merchant does not read what others did.
    if (user.merchantId) throw new PageError(403, 'forbidden');
    const cursor = typeof before === 'string' && /^\d{1,18}$/.test(before) ? before : undefined;
    await this.identity.audit({ ...actorOf(request), action: 'audit:read', result: 'succeeded', detail: cursor ? { before: cursor } : {} });
    const entries = await this.identity.auditLog(user.businessId, { limit: PAGE_SIZE + 1, before: cursor });
    const next = entries.length > PAGE_SIZE ? entries[PAGE_SIZE - 1].auditId : undefined;
    response.set(DASHBOARD_HEADERS).send(auditPage(languageOf(request), { user, csrfToken, entries: entries.slice(0, PAGE_SIZE), next }));
  }

  /** The whole log of the business as CSV, newest first; text a spreadsheet would run as a formula is defused. */
  @Get('export.csv')
  @Requires('read-audit', 'audit:export')
  async export(@Req() request: DashboardRequest, @Res() response: Response): Promise<void> {
    const { user } = request.dashboard!;
    if (user.merchantId) throw new PageError(403, 'forbidden');
    await this.identity.audit({ ...actorOf(request), action: 'audit:export', result: 'succeeded' });
    response.status(200).set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="audit-${new Date().toISOString().slice(0, 10)}.csv"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    response.write(CSV_COLUMNS.join(',') + '\r\n');
    let before: string | undefined;
    for (;;) {
      const entries = await this.identity.auditLog(user.businessId, { limit: EXPORT_BATCH, before });
      for (const e of entries)
        response.write(
          csvLine([
            e.sequence ?? '',
            e.at.toISOString(),
            e.email,
            e.address ?? '',
            e.action,
            e.target ?? '',
            e.result,
            JSON.stringify(e.detail ?? {}),
          ]),
        );
      if (entries.length < EXPORT_BATCH || request.destroyed) break;
      before = entries[entries.length - 1].auditId;
    }
    response.end();
  }
}
