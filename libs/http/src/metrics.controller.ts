import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { metrics } from '@pcs/observability';
import { Public } from './public.decorator';

/**
 * Prometheus's scrape (text exposition format): request durations by route
 * template and status, payment outcomes, refunds, job queue depth, webhook and
 * mail delivery results, and the Node process's own figures. Public like
 * /health and, like it, meant for the operator's network: no series carries a
 * tenant, an id or an amount.
 */
@ApiTags('health')
@Controller('metrics')
export class MetricsController {
  // Probes and scrapes are never rate-limited (contract §17).
  @Public({ limited: false })
  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('cache-control', 'no-store')
  @ApiOperation({
    summary: 'Prometheus metrics (public)',
    operationId: 'getMetrics',
    description:
      'Unsigned, in the Prometheus text format: http_request_duration_seconds, pcs_payment_outcomes_total, pcs_refunds_total, pcs_queue_jobs, pcs_webhook_deliveries_total, pcs_mail_deliveries_total and the process figures. Serve it only to the scraper (the operator network).',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } })
  async scrape(): Promise<string> {
    return metrics.registry.metrics();
  }
}
