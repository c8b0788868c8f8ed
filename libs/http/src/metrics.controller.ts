import { Controller, Get, Header, Headers, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { RuntimeSettings } from '@pcs/config';
import { DomainError, sameSecret } from '@pcs/kernel';
import { metrics } from '@pcs/observability';
import type { Response } from 'express';
import { Public } from './public.decorator';

/**
 * Prometheus's scrape (text exposition format): request durations by route
 * template and status, payment outcomes, refunds, job queue depth, webhook and
 * mail delivery results, and the Node process's own figures. Meant for the
 * operator's network: no series carries a tenant, an id or an amount. With
 * METRICS_TOKEN set (contract §27) it answers only the scraper that bears it
 * (`Authorization: Bearer <token>`, Prometheus's `authorization` setting);
 * anyone else gets a 401.
 */
@ApiTags('health')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly settings: RuntimeSettings) {}

  // Probes and scrapes are never rate-limited (contract §17).
  @Public({ limited: false })
  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary: 'Prometheus metrics (public)',
    operationId: 'getMetrics',
    description:
      'Unsigned, in the Prometheus text format: http_request_duration_seconds, pcs_payment_outcomes_total, pcs_refunds_total, pcs_queue_jobs, pcs_webhook_deliveries_total, pcs_mail_deliveries_total and the process figures. Serve it only to the scraper (the operator network). When the service has METRICS_TOKEN, only `Authorization: Bearer <METRICS_TOKEN>` is answered; anything else is 401 Auth:UNAUTHORIZED.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } })
  @ApiUnauthorizedResponse({ description: 'METRICS_TOKEN is set and the request does not bear it' })
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const token = this.settings.metricsToken;
    if (token !== null && !sameSecret(authorization, `Bearer ${token}`)) {
      response.setHeader('www-authenticate', 'Bearer realm="metrics"');
      throw new DomainError('UNAUTHORIZED');
    }
    return metrics.registry.metrics();
  }
}
