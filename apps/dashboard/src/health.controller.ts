import { Controller, Get, Res } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Anonymous } from './web';

/** Readiness, for a load balancer or an orchestrator: 200 while the dashboard's own tables answer, 503 otherwise. */
@Controller('health')
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Anonymous()
  @Get()
  async check(@Res() response: Response): Promise<void> {
    const up = await Promise.race([
      this.dataSource.query('SELECT 1').then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => setTimeout(resolve, 2000, false).unref()),
    ]);
    response.status(up ? 200 : 503).json({ status: up ? 'ok' : 'error' });
  }
}
