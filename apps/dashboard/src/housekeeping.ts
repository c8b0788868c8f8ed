import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DashboardIdentity } from '@pcs/dashboard-identity';

const EVERY_MS = 15 * 60_000;

/** Every 15 minutes, ended sessions and spent sign-in counters are deleted (a failure waits for the next round). */
@Injectable()
export class Housekeeping implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Housekeeping');
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly identity: DashboardIdentity) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.identity
        .purgeExpired()
        .catch((error: unknown) => this.logger.warn(`purge failed: ${error instanceof Error ? error.message : String(error)}`));
    }, EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
