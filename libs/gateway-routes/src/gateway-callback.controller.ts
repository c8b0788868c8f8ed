import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { GatewayRegistry, signsCallbacks } from '@pcs/gateways';
import { Public, RawBodyRequest } from '@pcs/http';
import { DomainError } from '@pcs/kernel';
import { GatewayEventsService } from '@pcs/payments';
import type { Request } from 'express';

/**
 * Where gateways report back (contract §10). Public to api-key signing; each
 * gateway's own signature is verified by its adapter over the raw bytes.
 */
@ApiExcludeController()
@Controller('gateway/callbacks')
export class GatewayCallbackController {
  constructor(
    private readonly gateways: GatewayRegistry,
    private readonly events: GatewayEventsService,
  ) {}

  @Public()
  @Post(':gateway')
  @HttpCode(200)
  async receive(@Param('gateway') name: string, @Req() request: Request & RawBodyRequest): Promise<{ received: true; result: string }> {
    let gateway;
    try {
      gateway = this.gateways.get(name.toUpperCase());
    } catch {
      throw new DomainError('GATEWAY_CALLBACK_REJECTED');
    }
    // Only a gateway that reports here signs its callbacks (SignsCallbacks); the others have routes of their own.
    if (!signsCallbacks(gateway)) throw new DomainError('GATEWAY_CALLBACK_REJECTED');
    const event = gateway.verifyCallback(request.headers, request.rawBody ?? Buffer.alloc(0));
    const result = await this.events.apply(event);
    return { received: true, result };
  }
}
