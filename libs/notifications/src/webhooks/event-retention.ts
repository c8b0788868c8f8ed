import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EventLogService } from './event-log.service';

const EVERY_MS = 3_600_000;

/** Deletes events past their 30 days, hourly, in each API process (an idempotent DELETE: replicas may overlap). */
@Injectable()
export class EventRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Events');
  private timer?: NodeJS.Timeout;

  constructor(private readonly log: EventLogService) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(), EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async run(): Promise<void> {
    try {
      let deleted = 0;
      for (let batch = await this.log.purgeExpired(); batch > 0; batch = await this.log.purgeExpired()) deleted += batch;
      if (deleted) this.logger.log(`deleted ${deleted} event(s) older than 30 days`);
    } catch (error) {
      this.logger.error(`event retention failed: ${(error as Error).message}`);
    }
  }
}
