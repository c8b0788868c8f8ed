import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseInterceptors } from '@nestjs/common';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import type { EvidenceFile } from '@pcs/client';
import { FormPipe, ConfirmedForm } from './forms';
import { MultipartFormInterceptor } from './uploads';
import type { Response } from 'express';
import * as crypto from 'node:crypto';
import { DISPUTE_STATUSES } from '@pcs/kernel';
import { confirmAcceptPage, disputePage, disputesPage } from './pages/disputes';
import { apiTextOf } from './area-forms';
import { DASHBOARD_HEADERS } from './pages/layout';
import { fill, TEXTS } from './pages/texts';
import { Dispute, PayinsApi, PayinsApiError, UUID } from './payins-api';
import { merchantOf } from './settlement.controller';
import type { UploadedFile } from './uploads';
import type { DashboardRequest } from './web';
import { actorOf, languageOf, PageError, pageOf, Redirect, Requires } from './web';

const NOTICES = { evidence: 'evidenceAdded', submitted: 'evidenceSubmitted', accepted: 'disputeAccepted' } as const;

/**
 * Disputes (contract §21): the list with the nearest due date first, one
 * dispute with its evidence, and, for operators and admins, the answer:
 * evidence uploaded through the API (which checks each file), the
 * submission, or the acceptance after a confirmation. Every answer is audited.
 */
@Controller('disputes')
export class DisputesController {
  constructor(
    private readonly api: PayinsApi,
    private readonly identity: DashboardIdentity,
  ) {}

  @Get()
  async list(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const merchants = await this.api.merchants(user);
    const merchantId = merchantOf(merchants, query.merchantId);
    const status = DISPUTE_STATUSES.find((s) => s === query.status);
    const page = pageOf(query.page);
    const [found, locale] = await Promise.all([
      this.api.disputes(user, { merchantId, status, page, limit: 25 }),
      this.api.localeOf(merchantId),
    ]);
    response.set(DASHBOARD_HEADERS).send(
      disputesPage(languageOf(request), {
        user,
        csrfToken,
        merchants,
        merchantId,
        status,
        rows: found.rows,
        page,
        pageCount: found.pageCount,
        timeZone: locale?.timeZone,
      }),
    );
  }

  @Get(':id')
  async show(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Query('done') done: unknown,
  ): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const language = languageOf(request);
    const dispute = await this.api.dispute(user, id);
    if (!dispute) throw new PageError(404, 'notFound');
    const notice = typeof done === 'string' && done in NOTICES ? TEXTS[language][NOTICES[done as keyof typeof NOTICES]] : undefined;
    const timeZone = (await this.api.localeOf(dispute.merchantId))?.timeZone;
    response
      .set(DASHBOARD_HEADERS)
      .send(disputePage(language, { user, csrfToken, dispute, operation: crypto.randomUUID(), notice, timeZone }));
  }

  /** Evidence from the upload form, once per form (its operation is the API's Idempotency-Key). */
  @Post(':id/evidence')
  @HttpCode(200)
  @Requires('answer-disputes', 'dispute:evidence')
  // The multipart form is read after the session guard has checked the session and the form's token (contract §30).
  @UseInterceptors(MultipartFormInterceptor)
  async evidence(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const dispute = await this.own(request, id);
    const operation = typeof body.operation === 'string' && UUID.test(body.operation) ? body.operation : null;
    if (!operation) throw new PageError(403, 'forbidden');
    const files = Array.isArray(body.files) ? (body.files as UploadedFile[]) : [];
    if (files.length === 0) return this.refused(request, response, dispute, TEXTS[languageOf(request)].chooseFiles, 400);
    const detail = { operation, files: files.map((f) => ({ name: f.name.slice(0, 120), bytes: f.content.length })) };
    await this.answer(request, response, dispute, 'dispute:evidence', detail, 'evidence', () =>
      this.api.addEvidence(
        dispute.disputeId,
        files.map((f): EvidenceFile => ({ name: f.name, type: f.type as EvidenceFile['type'], content: new Uint8Array(f.content) })),
        operation,
      ),
    );
  }

  @Post(':id/submit')
  @HttpCode(200)
  @Requires('answer-disputes', 'dispute:submit')
  async submit(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const dispute = await this.own(request, id);
    await this.answer(request, response, dispute, 'dispute:submit', {}, 'submitted', () => this.api.submitDispute(dispute.disputeId));
  }

  /** Accepting gives the amount up for good: the first post asks, the confirmed one accepts. */
  @Post(':id/accept')
  @HttpCode(200)
  @Requires('answer-disputes', 'dispute:accept')
  async accept(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Body(FormPipe) body: ConfirmedForm,
  ): Promise<void> {
    const dispute = await this.own(request, id);
    if (body.confirmed !== 'yes') {
      const { user, csrfToken } = request.dashboard!;
      response.set(DASHBOARD_HEADERS).send(confirmAcceptPage(languageOf(request), { user, csrfToken, dispute }));
      return;
    }
    await this.answer(
      request,
      response,
      dispute,
      'dispute:accept',
      { amount: dispute.amount, currency: dispute.currency },
      'accepted',
      () => this.api.acceptDispute(dispute.disputeId),
    );
  }

  /** The dispute, when it is the person's to see; 404 otherwise. */
  private async own(request: DashboardRequest, id: string): Promise<Dispute> {
    const dispute = await this.api.dispute(request.dashboard!.user, id);
    if (!dispute) throw new PageError(404, 'notFound');
    return dispute;
  }

  /** Does it at the API and audits the outcome; a refusal is shown on the dispute's page with the API's reason. */
  private async answer(
    request: DashboardRequest,
    response: Response,
    dispute: Dispute,
    action: string,
    detail: Record<string, unknown>,
    done: keyof typeof NOTICES,
    call: () => Promise<Dispute>,
  ): Promise<void> {
    const { user } = request.dashboard!;
    const language = languageOf(request);
    const audit = { ...actorOf(request), action, target: dispute.disputeId };
    try {
      const after = await call();
      await this.identity.audit({ ...audit, result: 'succeeded', detail: { ...detail, status: after.status } });
    } catch (error) {
      const refused = error instanceof PayinsApiError && error.status < 500 && error.status !== 429;
      await this.identity.audit({
        ...audit,
        result: refused ? 'refused' : 'failed',
        detail: { ...detail, errorId: error instanceof PayinsApiError ? error.body?.errorId : undefined },
      });
      if (!refused) throw error;
      const reason = error.body?.showMessage?.[apiTextOf(language)] ?? '';
      // Shown with the dispute as it is now (a race may have moved it on).
      const now = (await this.api.dispute(user, dispute.disputeId)) ?? dispute;
      return this.refused(request, response, now, fill(TEXTS[language].disputeRefused, { reason }), 422);
    }
    throw new Redirect(`/disputes/${dispute.disputeId}?done=${done}`);
  }

  private async refused(request: DashboardRequest, response: Response, dispute: Dispute, problem: string, status: number): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    response
      .status(status)
      .set(DASHBOARD_HEADERS)
      .send(
        disputePage(languageOf(request), {
          user,
          csrfToken,
          dispute,
          operation: crypto.randomUUID(),
          problem,
          timeZone: (await this.api.localeOf(dispute.merchantId))?.timeZone,
        }),
      );
  }
}
