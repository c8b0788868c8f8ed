import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import { DataSource } from 'typeorm';
import { auditKeyOf } from '../audit-chain';
import { AuditSealer } from '../audit-sealer';
import { AuditEntry, AuditLog } from './audit-log';

/**
 * The audit log as the APIs' HTTP layer writes to it (its AuditTrail port, which the apps provide
 * with this): entries under the master keys' audit keys, and this process's sealer, started with the
 * app and stopped before its connections close.
 */
@Injectable()
export class ApiAuditTrail {
  private readonly log: AuditLog;
  private readonly sealer: AuditSealer;

  constructor(@InjectDataSource() dataSource: DataSource, settings: RuntimeSettings) {
    this.log = new AuditLog(dataSource, settings.masterKeyRing.map(auditKeyOf));
    this.sealer = new AuditSealer(this.log);
  }

  insertion(entry: AuditEntry): { sql: string; parameters: unknown[] } {
    return this.log.insertion(entry);
  }

  append(entry: AuditEntry): Promise<void> {
    return this.log.append(entry);
  }

  start(): void {
    this.sealer.start();
  }

  stop(): Promise<void> {
    return this.sealer.stop();
  }
}
