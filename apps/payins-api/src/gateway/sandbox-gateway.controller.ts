import { Body, Controller, Get, Header, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SandboxDecision, SandboxDesk } from '@pcs/gateways';
import { Public } from '@pcs/http';
import { InvalidRequestError } from '@pcs/kernel';
import { renderSandboxPage } from './sandbox-page';

const DECISIONS: readonly SandboxDecision[] = ['approve', 'reject', 'pending'];

/**
 * The sandbox gateway's payer-facing page (contract §10): public, no
 * signature, like a real gateway's checkout. Its form posts `outcome`.
 */
@ApiExcludeController()
@Controller('sandbox/gateway')
export class SandboxGatewayController {
  constructor(private readonly desk: SandboxDesk) {}

  @Public()
  @Get(':reference')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  async page(@Param('reference') reference: string): Promise<string> {
    return renderSandboxPage(await this.desk.page(reference));
  }

  @Public()
  @Post(':reference')
  @HttpCode(200)
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  async decide(@Param('reference') reference: string, @Body() body: Record<string, unknown>): Promise<string> {
    const outcome = body?.outcome;
    if (typeof outcome !== 'string' || !DECISIONS.includes(outcome as SandboxDecision)) {
      throw new InvalidRequestError(['outcome'], 'outcome must be approve, reject or pending');
    }
    return renderSandboxPage(await this.desk.decide(reference, outcome as SandboxDecision));
  }
}
