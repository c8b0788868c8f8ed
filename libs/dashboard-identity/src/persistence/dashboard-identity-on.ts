import * as crypto from 'node:crypto';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { DashboardIdentity } from '../dashboard-identity';
import { SecretSealer } from '../second-factor';
import { AuditLog } from './audit-log';
import { PostgresPeopleRepository } from './postgres-people.repository';

/**
 * The dashboard's identity on the database: people and sessions in their
 * tables, the audit log chained with `auditKeys` (from the master key, see
 * auditKeyOf: the first one writing, all of them verifying, so a rotated
 * master key's entries stay verifiable), and the sign-in counters in
 * `dashboard_sign_in_limit`, shared by every process.
 */
export function dashboardIdentityOn(
  dataSource: DataSource,
  secrets: SecretSealer | null = null,
  options: { idleMinutes?: number; auditKeys?: readonly Buffer[] } = {},
): DashboardIdentity {
  return new DashboardIdentity(
    {
      people: new PostgresPeopleRepository(dataSource),
      log: new AuditLog(dataSource, options.auditKeys ?? []),
      limiter: ({ keyPrefix, points, duration }) =>
        new RateLimiterPostgres({
          storeClient: dataSource,
          storeType: 'typeorm',
          tableName: 'dashboard_sign_in_limit',
          tableCreated: true,
          keyPrefix,
          points,
          duration,
          clearExpiredByTimeout: false,
        }),
    },
    secrets,
    {
      idleMinutes: options.idleMinutes,
      // Derived from the audit key (itself from the master key), for this use alone.
      emailKey: options.auditKeys?.[0]
        ? Buffer.from(crypto.hkdfSync('sha256', options.auditKeys[0], Buffer.alloc(0), 'pcs unknown sign-in v1', 32))
        : undefined,
    },
  );
}
