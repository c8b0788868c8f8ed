import {
  DEFAULT_GATEWAY_SETTINGS,
  DEFAULT_MAIL_SETTINGS,
  DEFAULT_DAILY_RUN_SETTINGS,
  DEFAULT_SETTLEMENT_SETTINGS,
  DEFAULT_WEBHOOK_SETTINGS,
  Environment,
  EnvironmentError,
  parseRetrySchedule,
  processorApisOf,
  publicBaseUrlFor,
  resolveEarlierMasterKeys,
  resolveSecretsMasterKey,
  RuntimeSettings,
  SERVICE_QUEUES,
  trustProxyOf,
} from '@pcs/config';
import * as path from 'node:path';
import { resolveDatabase } from './connection';
import { RunningDatabase } from './embedded-postgres';
import { checkServingDatabase, ownerRoleAllowed, refuseMigrationUrl } from './least-privilege';
import { migrateDatabase } from './migrate';

/** Contract §15: an API on a real database sends real mail; only the embedded default may write .eml files instead. */
export function requireMailTransport(env: Environment): void {
  if (env.DATABASE_URL && !env.SMTP_URL && !env.MAIL_DIRECTORY) {
    throw new EnvironmentError('SMTP_URL is required when DATABASE_URL is set (smtp://user:password@host:587)');
  }
}

/** Where .eml files go when there is no SMTP server: only on the embedded default. */
export function mailDirectoryFor(env: Environment): string | null {
  if (env.SMTP_URL) return null;
  if (env.MAIL_DIRECTORY) return path.resolve(env.MAIL_DIRECTORY);
  return env.DATABASE_URL ? null : path.join(env.dataDir, 'mail');
}

export interface PreparedRuntime {
  readonly database: RunningDatabase;
  settingsFor(port: number): RuntimeSettings;
}

/**
 * Everything before an app can serve: the database (embedded by default),
 * its migrations, and the secrets master key.
 */
/** WEBHOOKS_ALLOW_LOCALHOST, or by default whether this is the embedded default (npm start tells its APIs). */
export function webhooksAllowLocalhost(env: Environment): boolean {
  return env.WEBHOOKS_ALLOW_LOCALHOST ?? !env.DATABASE_URL;
}

/**
 * Who prepares (contract §30): `launcher` (npm start, npm run migrate's kind)
 * migrates as the owner; a `service` (an API) and an `operator` command never
 * migrate a configured database (they check that it is migrated), and a service
 * refuses the owner's URL and a role that owns tables. On the embedded
 * default each is its own server's launcher; `PCS_ALLOW_OWNER_ROLE=1`
 * (development) restores migrating at start.
 */
export type RuntimeRole = 'launcher' | 'service' | 'operator';

export async function prepareRuntime(
  env: Environment,
  log: (line: string) => void,
  role: RuntimeRole = 'launcher',
  name = 'API',
): Promise<PreparedRuntime> {
  if (role === 'service') refuseMigrationUrl(env, name);
  const secretsMasterKey = resolveSecretsMasterKey(env);
  const [previousMasterKey = null, ...earlierMasterKeys] = resolveEarlierMasterKeys(env);
  const mail = {
    ...DEFAULT_MAIL_SETTINGS,
    smtpUrl: env.SMTP_URL ?? null,
    directory: mailDirectoryFor(env),
    from: env.MAIL_FROM,
  };
  const database = await resolveDatabase(env, log);
  try {
    // Migrations hold a session-level lock: never through a pooler in transaction mode. With an owner role apart
    // (DATABASE_MIGRATION_URL, or the embedded default's), they run as it and grant the runtime role its rows.
    const migrates = role === 'launcher' || !env.DATABASE_URL || ownerRoleAllowed(env);
    if (migrates) {
      const target = migrationTarget(env, database);
      await migrateDatabase(target.url, log, { runtimeRole: target.runtimeRole, queues: SERVICE_QUEUES });
    }
    if (role === 'service') await checkServingDatabase(database.runtimeUrl ?? database.url, ownerRoleAllowed(env), name);
    else if (!migrates) await checkServingDatabase(database.url, true, name);
  } catch (error) {
    await database.stop();
    throw error;
  }
  return {
    database,
    settingsFor: (port) =>
      new RuntimeSettings(
        database.runtimeUrl ?? database.url,
        secretsMasterKey,
        publicBaseUrlFor(env, port),
        env.DATABASE_POOL_SIZE,
        {
          sessionMinutes: env.GATEWAY_SESSION_MINUTES,
          sandboxSettleSeconds: env.SANDBOX_SETTLE_SECONDS,
          sweepSeconds: env.SWEEP_SECONDS,
          reconcileAfterSeconds: env.RECONCILE_AFTER_SECONDS,
          checkoutMinutes: env.CHECKOUT_MINUTES,
          processorApis: processorApisOf(env),
          breakerFailures: DEFAULT_GATEWAY_SETTINGS.breakerFailures,
          breakerWindowMs: DEFAULT_GATEWAY_SETTINGS.breakerWindowMs,
          breakerOpenMs: env.PROCESSOR_BREAKER_OPEN_SECONDS * 1000,
        },
        env.IDEMPOTENCY_LEASE_SECONDS,
        mail,
        {
          ...DEFAULT_WEBHOOK_SETTINGS,
          retryScheduleSeconds: parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE),
          allowLocalhost: webhooksAllowLocalhost(env),
        },
        {
          enabled: env.RATE_LIMITS === 'on',
          readsPerSecond: env.RATE_LIMIT_READS_PER_SECOND,
          writesPerSecond: env.RATE_LIMIT_WRITES_PER_SECOND,
          addressPerSecond: env.RATE_LIMIT_ADDRESS_PER_SECOND,
          trustProxy: trustProxyOf(env.TRUST_PROXY),
        },
        env.DATABASE_PREPARED_STATEMENTS === 'on',
        {
          ...DEFAULT_SETTLEMENT_SETTINGS,
          payoutRail: env.PAYOUT_RAIL === 'bank-file' ? 'BANK_FILE' : 'SANDBOX',
          sandboxPayoutDelaySeconds: parseRetrySchedule(env.PAYOUT_SANDBOX_DELAY)[0],
          accountHoldHours: Math.min(720, Number(env.SETTLEMENT_ACCOUNT_HOLD_HOURS)),
        },
        { ...DEFAULT_DAILY_RUN_SETTINGS, claim: env.DAILY_RUNS === 'on' },
        previousMasterKey,
        env.DATABASE_REPLICA_URL ? { url: env.DATABASE_REPLICA_URL, maxLagSeconds: env.DATABASE_REPLICA_MAX_LAG_SECONDS } : null,
        env.DATABASE_DIRECT_URL ?? null,
        env.METRICS_TOKEN ?? null,
        earlierMasterKeys,
      ),
  };
}

/**
 * Where migrations run and which role they grant its rows (contract §27):
 * DATABASE_MIGRATION_URL (the owner) with DATABASE_URL's role as the runtime
 * role; the embedded default's superuser with `pcs_runtime`; otherwise the
 * one role of DATABASE_URL (DATABASE_DIRECT_URL behind a pooler), granting
 * nothing.
 */
export function migrationTarget(env: Environment, database: RunningDatabase): { url: string; runtimeRole: string | null } {
  const runtimeUrl = database.runtimeUrl ?? database.url;
  const ownerUrl = env.DATABASE_MIGRATION_URL ?? (database.runtimeUrl ? database.url : null);
  if (!ownerUrl) return { url: env.DATABASE_DIRECT_URL ?? database.url, runtimeRole: null };
  const runtime = decodeURIComponent(new URL(runtimeUrl).username);
  const owner = decodeURIComponent(new URL(ownerUrl).username);
  return { url: ownerUrl, runtimeRole: runtime && runtime !== owner ? runtime : null };
}
