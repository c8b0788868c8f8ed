import { Body, Controller, Get, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DisputeReports } from '@pcs/disputes';
import {
  CardParts,
  cardPartsOf,
  renderSandboxNotFound,
  renderSandboxPage,
  SandboxDecision,
  SandboxDesk,
  SandboxPageView,
} from '@pcs/gateways';
import { PayerPage, Public } from '@pcs/http';
import { DISPUTE_REASONS, DisputeReason, DomainError, InvalidRequestError } from '@pcs/kernel';
import { PAGE_HEADERS, PayerLanguage, payerLanguage } from '@pcs/pages';
import { CardTestingGuard } from '@pcs/payments';
import type { Request, Response } from 'express';

const DECISIONS: readonly SandboxDecision[] = ['approve', 'reject', 'pending'];

/** The sandbox page's test card: all three parts or none (an empty form); anything else is a 400 naming the field. */
function sandboxCardOf(body: Record<string, unknown>): CardParts | null {
  const given = (['cardBin', 'cardLast4', 'cardExpiry'] as const).filter((f) => body[f] !== undefined && body[f] !== '');
  if (given.length === 0) return null;
  const expiry = typeof body.cardExpiry === 'string' ? /^(\d{2})\/(\d{2})$/.exec(body.cardExpiry.trim()) : null;
  const card = cardPartsOf(body.cardBin, body.cardLast4, expiry?.[1], expiry?.[2]);
  if (!card || typeof body.cardBin !== 'string' || body.cardBin.trim().length !== 6)
    throw new InvalidRequestError(
      ['cardBin', 'cardLast4', 'cardExpiry'],
      'a test card needs its first 6 digits, its last 4 and its expiry as MM/YY',
    );
  return card;
}

const DISPUTE_OPENED: Record<PayerLanguage, string> = {
  es: 'Se abrió la disputa {id}: el comercio la ve y puede responder con evidencia.',
  en: 'Dispute {id} opened: the merchant sees it and may answer with evidence.',
  pt: 'A disputa {id} foi aberta: o comerciante a vê e pode responder com evidências.',
};

/**
 * The sandbox gateway's payer-facing page (contract §10): public, no
 * signature, like a real gateway's checkout, in Spanish unless the browser
 * prefers English. Its form posts `outcome`; when the service opened the
 * attempt with a return address, the answer is a 303 there once the decision
 * is recorded. An approved payment can be disputed from the same page
 * (`outcome=dispute` with a `reason`), as the payer's bank would (contract
 * §21). An unknown address is an HTML page saying so.
 */
@ApiExcludeController()
@PayerPage()
@Controller('sandbox/gateway')
export class SandboxGatewayController {
  constructor(
    private readonly desk: SandboxDesk,
    private readonly disputes: DisputeReports,
    private readonly cardTesting: CardTestingGuard,
  ) {}

  @Public()
  @Get(':reference')
  async page(
    @Param('reference') reference: string,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const language = payerLanguage(acceptLanguage);
    const view = await this.view(() => this.desk.page(reference));
    response
      .status(view ? 200 : 404)
      .set(PAGE_HEADERS)
      .send(view ? renderSandboxPage(view, language) : renderSandboxNotFound(language));
  }

  @Public()
  @Post(':reference')
  @HttpCode(200)
  async decide(
    @Param('reference') reference: string,
    @Body() body: Record<string, unknown>,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const outcome = body?.outcome;
    const language = payerLanguage(acceptLanguage);
    if (outcome === 'dispute') return this.dispute(reference, body.reason, language, response);
    if (typeof outcome !== 'string' || !DECISIONS.includes(outcome as SandboxDecision)) {
      throw new InvalidRequestError(['outcome'], 'outcome must be approve, reject, pending or dispute');
    }
    // The plan the payer chose on the page (contract §25): a whole number of the offer's, or none (one payment).
    const chosen = body.installments;
    if (chosen !== undefined && (typeof chosen !== 'string' || !/^\d{1,2}$/.test(chosen)))
      throw new InvalidRequestError(['installments'], 'installments must be a whole number');
    // The test card's parts, when given (contract §30): refused (429) while its card, address or sale is blocked; its fingerprint kept.
    const card = sandboxCardOf(body);
    if (outcome !== 'pending') await this.cardTesting.atSandboxPage(reference, request.ip ?? '', card);
    const view = await this.view(() =>
      this.desk.decide(reference, outcome as SandboxDecision, chosen === undefined ? undefined : Number(chosen)),
    );
    if (!view) {
      response.status(404).set(PAGE_HEADERS).send(renderSandboxNotFound(language));
      return;
    }
    if (view.returnUrl) {
      response.set('Cache-Control', 'no-store').redirect(303, view.returnUrl);
      return;
    }
    response.status(200).set(PAGE_HEADERS).send(renderSandboxPage(view, language));
  }

  /** The payer's bank takes an approved payment back (contract §21): the page says what became of it. */
  private async dispute(reference: string, reason: unknown, language: PayerLanguage, response: Response): Promise<void> {
    if (typeof reason !== 'string' || !(DISPUTE_REASONS as readonly string[]).includes(reason))
      throw new InvalidRequestError(['reason'], `reason must be one of ${DISPUTE_REASONS.join(', ')}`);
    const view = await this.view(() => this.desk.page(reference));
    if (!view || !view.disputable) {
      response
        .status(view ? 409 : 404)
        .set(PAGE_HEADERS)
        .send(view ? renderSandboxPage(view, language) : renderSandboxNotFound(language));
      return;
    }
    let notice: string;
    let status = 200;
    try {
      const disputeId = await this.disputes.openSandbox({ sandboxReference: reference }, reason as DisputeReason);
      notice = DISPUTE_OPENED[language].replace('{id}', disputeId);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      notice = error.texts()[language === 'es' ? 'ES' : 'EN'];
      status = 409;
    }
    response
      .status(status)
      .set(PAGE_HEADERS)
      .send(renderSandboxPage(view, language, notice));
  }

  private async view(load: () => Promise<SandboxPageView>): Promise<SandboxPageView | null> {
    try {
      return await load();
    } catch (error) {
      if (error instanceof DomainError && error.code === 'GATEWAY_SESSION_NOT_FOUND') return null;
      throw error;
    }
  }
}
