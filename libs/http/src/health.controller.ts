import { Controller, Get, HttpCode, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from './public.decorator';

class HealthIndicatorResponse {
  @ApiProperty({ example: 'up', enum: ['up', 'down'] })
  status: 'up' | 'down';

  @ApiProperty({ required: false, description: 'Why the indicator is down' })
  message?: string;
}

/** Terminus's answer: each indicator's state under info (up), error (down) and details (all). */
class HealthResponse {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'], example: 'ok' })
  status: 'ok' | 'error' | 'shutting_down';

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/HealthIndicatorResponse' },
    example: { database: { status: 'up' } },
  })
  info: Record<string, HealthIndicatorResponse>;

  @ApiProperty({ type: 'object', additionalProperties: { $ref: '#/components/schemas/HealthIndicatorResponse' }, example: {} })
  error: Record<string, HealthIndicatorResponse>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/HealthIndicatorResponse' },
    example: { database: { status: 'up' } },
  })
  details: Record<string, HealthIndicatorResponse>;
}

/**
 * Readiness (@nestjs/terminus): 200 when this process can serve, which needs
 * its database to answer within two seconds; 503 otherwise, so a load
 * balancer or an orchestrator sends it no traffic until it can.
 */
@ApiTags('health')
@ApiExtraModels(HealthIndicatorResponse)
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  // Probes and scrapes are never rate-limited (contract §17).
  @Public({ limited: false })
  @Get()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Readiness of the API and its database (public)',
    operationId: 'getHealth',
    description: 'Unsigned. 200 when the API and its database answer, 503 otherwise (for load balancers and orchestrators).',
  })
  @ApiOkResponse({ type: HealthResponse })
  @ApiServiceUnavailableResponse({ type: HealthResponse })
  async check(@Res({ passthrough: true }) response: Response): Promise<HealthCheckResult> {
    try {
      return await this.health.check([() => this.database.pingCheck('database', { connection: this.dataSource, timeout: 2000 })]);
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      response.status(503);
      return error.getResponse() as HealthCheckResult;
    }
  }
}
