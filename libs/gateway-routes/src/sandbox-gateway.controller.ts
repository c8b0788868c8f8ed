import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { renderSandboxNotFound, renderSandboxPage, SandboxDecision, SandboxDesk, SandboxPageView } from '@pcs/gateways';
import { PayerPage, Public } from '@pcs/http';
import { DomainError, InvalidRequestError } from '@pcs/kernel';
import { PAGE_HEADERS, payerLanguage } from '@pcs/pages';
import type { Response } from 'express';

const DECISIONS: readonly SandboxDecision[] = ['approve', 'reject', 'pending'];

/**
 * The sandbox gateway's payer-facing page (contract §10): public, no
 * signature, like a real gateway's checkout, in Spanish unless the browser
 * prefers English. Its form posts `outcome`; when the service opened the
 * attempt with a return address, the answer is a 303 there once the decision
 * is recorded. An unknown address is an HTML page saying so.
 */
@ApiExcludeController()
@PayerPage()
@Controller('sandbox/gateway')
export class SandboxGatewayController {
  constructor(private readonly desk: SandboxDesk) {}

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
    @Res() response: Response,
  ): Promise<void> {
    const outcome = body?.outcome;
    if (typeof outcome !== 'string' || !DECISIONS.includes(outcome as SandboxDecision)) {
      throw new InvalidRequestError(['outcome'], 'outcome must be approve, reject or pending');
    }
    const language = payerLanguage(acceptLanguage);
    const view = await this.view(() => this.desk.decide(reference, outcome as SandboxDecision));
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

  private async view(load: () => Promise<SandboxPageView>): Promise<SandboxPageView | null> {
    try {
      return await load();
    } catch (error) {
      if (error instanceof DomainError && error.code === 'GATEWAY_SESSION_NOT_FOUND') return null;
      throw error;
    }
  }
}
