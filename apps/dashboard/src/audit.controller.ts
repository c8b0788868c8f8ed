import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import type { Response } from 'express';
import { auditPage } from './pages/audit';
import { DASHBOARD_HEADERS } from './pages/layout';
import type { DashboardRequest } from './web';
import { languageOf, PageError, Requires } from './web';

const PAGE_SIZE = 50;

/** The audit log of the business: every change made through the dashboard, who, what, when and with what result (admins). */
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
    const entries = await this.identity.auditLog(user.businessId, { limit: PAGE_SIZE + 1, before: cursor });
    const next = entries.length > PAGE_SIZE ? entries[PAGE_SIZE - 1].auditId : undefined;
    response.set(DASHBOARD_HEADERS).send(auditPage(languageOf(request), { user, csrfToken, entries: entries.slice(0, PAGE_SIZE), next }));
  }
}
