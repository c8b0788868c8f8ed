import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { payersPage } from './pages/areas';
import { DASHBOARD_HEADERS } from './pages/layout';
import { PayinsApi } from './payins-api';
import type { DashboardRequest } from './web';
import { languageOf, pageOf } from './web';
import { text } from './area-forms';

/** Payers: search by name, document, email or phone (operation 9's searchTerm). */
@Controller('payers')
export class PayersController {
  constructor(private readonly api: PayinsApi) {}

  @Get()
  async search(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const searchTerm = text(query.searchTerm, 100) || undefined;
    const pageNumber = pageOf(query.page);
    const found = await this.api.payers(user, { page: pageNumber, searchTerm });
    response.set(DASHBOARD_HEADERS).send(
      payersPage(languageOf(request), {
        user,
        csrfToken,
        payers: found.rows,
        searchTerm,
        pageNumber,
        pageCount: found.pageCount,
        total: found.total,
      }),
    );
  }
}
