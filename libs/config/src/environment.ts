/*
 * Why one file: every setting of the service in one class, so that .env.example, compose and the docs are
 * checked against one list (test/deployment.e2e-spec.ts).
 */
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, validateSync } from 'class-validator';
import * as path from 'node:path';

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
const RETRY_SCHEDULE = /^[1-9]\d{0,5}[smh](,[1-9]\d{0,5}[smh]){0,19}$/;

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
const toBoolean = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : value === 'true' || value === '1'
      ? true
      : value === 'false' || value === '0'
        ? false
        : value;

/**
 * Every variable the service reads (contract §11). Validated once at start-up:
 * a bad value stops the process with a message naming it, never later.
 */
export class Environment {
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  /**
   * DATABASE_URL's database reached without a pooler, for what needs a
   * session of its own (docs/scale-out.md): migrations and the locks that
   * order start-ups, and the change feed's LISTEN. Needed only when
   * DATABASE_URL goes through PgBouncer in transaction mode; by default
   * DATABASE_URL itself.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_DIRECT_URL must be a postgres:// URL' })
  DATABASE_DIRECT_URL?: string;

  /**
   * The role that owns the tables (contract §27, §30): `npm run migrate`
   * applies the migrations, creates the job queue's schema and queues and
   * grants the runtime role its rows as it, directly (no pooler). DATABASE_URL
   * is then the runtime role, which cannot alter tables, disable triggers,
   * truncate, or change audit entries. Only the migration step (and `npm
   * start`, which runs it first) may receive it: an API or the dashboard
   * with it in its environment refuses to start.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_MIGRATION_URL must be a postgres:// URL' })
  DATABASE_MIGRATION_URL?: string;

  /**
   * Development only (contract §30): `1` lets an API or the dashboard start
   * with DATABASE_MIGRATION_URL in its environment or on a role that owns
   * tables (one role does everything, and such a process applies pending
   * migrations itself as before). Never in production.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsIn(['0', '1'])
  PCS_ALLOW_OWNER_ROLE?: '0' | '1';

  /**
   * A streaming read replica of DATABASE_URL's database: the ledger, balance
   * transactions and the reports built from them are read there while it is
   * within DATABASE_REPLICA_MAX_LAG_SECONDS of the primary (docs/scale-out.md).
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_REPLICA_URL must be a postgres:// URL' })
  DATABASE_REPLICA_URL?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(300)
  DATABASE_REPLICA_MAX_LAG_SECONDS: number = 5;

  @IsString()
  DATA_DIR: string = './.data';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PAYINS_API_PORT: number = 3000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  B2B_API_PORT: number = 3001;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  DASHBOARD_PORT: number = 3002;

  /** Idle minutes before a dashboard session ends (contract §22, PCI DSS 8.2.8): 15 at most. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(15)
  DASHBOARD_IDLE_MINUTES: number = 15;

  /** Where the dashboard reaches the payins API (contract §18); unset: http://localhost:<PAYINS_API_PORT>. */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  PAYINS_API_URL?: string;

  /**
   * The credential of the business the dashboard serves (a business's api-key
   * and secret); under `npm start` on the embedded default, the demo business's.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  DASHBOARD_API_KEY?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  DASHBOARD_API_SECRET?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl({ require_tld: false, require_protocol: true })
  PUBLIC_BASE_URL?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^[A-Za-z0-9+/=_-]{43,}$/, { message: 'SECRETS_MASTER_KEY must be 32 random bytes in base64 (openssl rand -base64 32)' })
  SECRETS_MASTER_KEY?: string;

  /**
   * The master key's earlier generations, newest first, separated by commas (contract §22, §29): read,
   * never written with. The one before the current opens what a rotation has not resealed yet; every
   * earlier one keeps the audit entries it sealed verifiable, so none is ever dropped from the ring.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^[A-Za-z0-9+/=_-]{43,}(,[A-Za-z0-9+/=_-]{43,})*$/, {
    message: 'SECRETS_MASTER_KEY_PREVIOUS must be 32 random bytes in base64, or several separated by commas (newest first)',
  })
  SECRETS_MASTER_KEY_PREVIOUS?: string;

  /**
   * Where the dashboard also sends the audit chain's head every minute and at
   * shutdown (contract §27): an https endpoint that keeps what it receives;
   * `audit:verify` reads the newest back from it. http only on loopback.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @Matches(/^(https:\/\/|http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/)/, {
    message: 'AUDIT_ANCHOR_URL must be https (http only on the loopback, for trying it locally)',
  })
  AUDIT_ANCHOR_URL?: string;

  /** Sent as `Authorization: Bearer <AUDIT_ANCHOR_TOKEN>` with every head and read of AUDIT_ANCHOR_URL (contract §29), for the receiver to check. */
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^[\x21-\x7e]{16,256}$/, { message: 'AUDIT_ANCHOR_TOKEN must be 16 to 256 printable characters without spaces' })
  AUDIT_ANCHOR_TOKEN?: string;

  /** When set, /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (contract §27); at least 32 characters. */
  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^[\x21-\x7e]{32,256}$/, {
    message: 'METRICS_TOKEN must be 32 to 256 printable characters without spaces (openssl rand -hex 32)',
  })
  METRICS_TOKEN?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** `pretty` (one readable line, for a person), `json` (one JSON object per line, for a collector), or `auto`: pretty on a terminal. */
  @IsIn(['auto', 'pretty', 'json'])
  LOG_FORMAT: 'auto' | 'pretty' | 'json' = 'auto';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE: number = 10;

  /**
   * `on`: the hot statements are named prepared statements, parsed once per
   * connection. `off` behind a pooler that hands a session's statements to
   * other connections (PgBouncer in transaction mode before 1.21).
   */
  @IsIn(['on', 'off'])
  DATABASE_PREPARED_STATEMENTS: 'on' | 'off' = 'on';

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1440)
  GATEWAY_SESSION_MINUTES: number = 30;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86400)
  SANDBOX_SETTLE_SECONDS: number = 20;

  /** Mercado Pago's API (contract §16); a stand-in's address for trying the flow locally. */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  MERCADOPAGO_API_URL: string = 'https://api.mercadopago.com';

  /** How long one request to Mercado Pago may take (contract §16: at most 10 s); reconciliation settles what timed out. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10)
  MERCADOPAGO_TIMEOUT_SECONDS: number = 10;

  /** Mercado Pago's browser SDK (MercadoPago.js v2), whose Secure Fields the card setup page embeds (contract §31). */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  MERCADOPAGO_SDK_URL: string = 'https://sdk.mercadopago.com/js/v2';

  /** dLocal's Payins API (contract §20): https://api.dlocal.com, its sandbox https://sandbox.dlocal.com, or a stand-in's address. */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  DLOCAL_API_URL: string = 'https://api.dlocal.com';

  /** dLocal.js, whose Smart Fields the card setup page embeds (contract §31): https://js-sandbox.dlocal.com/ for its sandbox. */
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  DLOCAL_SDK_URL: string = 'https://js.dlocal.com/';

  /** How long one request to dLocal may take (at most 10 s, as for Mercado Pago); reconciliation settles what timed out. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10)
  DLOCAL_TIMEOUT_SECONDS: number = 10;

  /** How long a processor account's open circuit sends attempts straight to the rule's next processor (contract §26). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(600)
  PROCESSOR_BREAKER_OPEN_SECONDS: number = 30;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  RECONCILE_AFTER_SECONDS: number = 30;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  IDEMPOTENCY_LEASE_SECONDS: number = 60;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600)
  SWEEP_SECONDS: number = 5;

  /** How long a B2B checkout stays open unpaid before it expires (contract §13). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(43200)
  CHECKOUT_MINUTES: number = 1440;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsString()
  MAIL_FROM: string = 'Pagos <no-reply@localhost>';

  /**
   * Set by `npm start` for its API processes on the embedded database (where
   * mail becomes .eml files); not a production setting.
   */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  MAIL_DIRECTORY?: string;

  /** Waits between webhook delivery attempts (contract §14): seconds, minutes or hours, comma-separated. */
  @Matches(RETRY_SCHEDULE, { message: 'WEBHOOK_RETRY_SCHEDULE must list waits like 5s,5m,30m,2h' })
  WEBHOOK_RETRY_SCHEDULE: string = DEFAULT_WEBHOOK_RETRY_SCHEDULE;

  /** Whether webhooks may go to http://localhost and http://127.0.0.1; unset: true on the embedded default only. */
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'WEBHOOKS_ALLOW_LOCALHOST must be true or false' })
  WEBHOOKS_ALLOW_LOCALHOST?: boolean;

  /**
   * `off` only where something in front of the APIs already limits every
   * caller (an API gateway): the limits then cost nothing here, and nothing
   * here protects one tenant from another.
   */
  @IsIn(['on', 'off'])
  RATE_LIMITS: 'on' | 'off' = 'on';

  /** Signed reads (GET) per api-key per second, shared by every process (contract §17); bursts of twice this pass. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  RATE_LIMIT_READS_PER_SECOND: number = 200;

  /** Signed writes (every other method) per api-key per second, shared by every process; bursts of twice this pass. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  RATE_LIMIT_WRITES_PER_SECOND: number = 50;

  /**
   * Unauthenticated requests (refused signatures, payer pages, gateway
   * callbacks) per client address per second; bursts of twice this pass.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  RATE_LIMIT_ADDRESS_PER_SECOND: number = 50;

  /**
   * Which proxies in front of the APIs to believe about the client's address
   * (X-Forwarded-For), as Express's `trust proxy`: `false` (the default: the
   * address is the connection's), a hop count, or addresses/subnets
   * (`loopback`, `10.0.0.0/8, 172.16.0.1`). Behind a load balancer without
   * it, every caller shares the balancer's address and its limit. `true`
   * (believe any X-Forwarded-For) is refused: any caller could then choose
   * its own address and escape its limit.
   */
  @Matches(/^(?!true$)(false|\d{1,2}|[0-9A-Za-z.:/,\s]{1,500})$/, {
    message: 'TRUST_PROXY must be false, a hop count, or addresses and subnets',
  })
  TRUST_PROXY: string = 'false';

  /**
   * How payouts leave (contract §19): `sandbox` (in transit at once, paid
   * after PAYOUT_SANDBOX_DELAY, failed when the account number ends in 13) or
   * `bank-file` (they wait in a batch file per bank that the operator exports,
   * and the bank's answer is recorded with payout:mark-paid / mark-failed).
   */
  @IsIn(['sandbox', 'bank-file'])
  PAYOUT_RAIL: 'sandbox' | 'bank-file' = 'sandbox';

  /** How long a sandbox payout stays in transit before it is paid: a duration like 10s, 5m or 1h. */
  @Matches(/^[1-9]\d{0,5}[smh]$/, { message: 'PAYOUT_SANDBOX_DELAY must be a duration like 10s, 5m or 1h' })
  PAYOUT_SANDBOX_DELAY: string = '10s';

  /**
   * How long payouts to a settlement account wait after it is set or changed
   * (contract §24: the first account a merchant sets does not), unless a
   * dashboard admin confirms it with a second-factor code: whole hours, 0–720.
   */
  @Matches(/^(0|[1-9]\d{0,2})$/, { message: 'SETTLEMENT_ACCOUNT_HOLD_HOURS must be a whole number of hours, 0 to 720' })
  SETTLEMENT_ACCOUNT_HOLD_HOURS: string = '72';

  /**
   * Whether this process takes part in the once-a-day runs (scheduled payouts
   * and balance.available at 06:00, reconciliation at 07:00, each country's
   * time): `off` only for a process that must never start them (a test's).
   */
  @IsIn(['on', 'off'])
  DAILY_RUNS: 'on' | 'off' = 'on';

  get dataDir(): string {
    return path.resolve(this.DATA_DIR);
  }
}

/**
 * Each processor's API from its variables, by the processor's name (the one the gateway registry knows):
 * the settings' one place that names processors, so that a processor's library reads its own entry.
 */
export function processorApisOf(env: Environment): Record<string, { url: string; timeoutMs: number; browserScript?: string }> {
  const api = (url: string, timeoutSeconds: number, browserScript?: string) => ({
    url: url.replace(/\/+$/, ''),
    timeoutMs: timeoutSeconds * 1000,
    ...(browserScript ? { browserScript } : {}),
  });
  return {
    MERCADO_PAGO: api(env.MERCADOPAGO_API_URL, env.MERCADOPAGO_TIMEOUT_SECONDS, env.MERCADOPAGO_SDK_URL),
    DLOCAL: api(env.DLOCAL_API_URL, env.DLOCAL_TIMEOUT_SECONDS, env.DLOCAL_SDK_URL),
  };
}

export class EnvironmentError extends Error {}

/** `5s,5m,30m` in seconds. */
export function parseRetrySchedule(schedule: string): number[] {
  if (!RETRY_SCHEDULE.test(schedule)) throw new EnvironmentError(`not a retry schedule: ${schedule}`);
  const unit: Record<string, number> = { s: 1, m: 60, h: 3600 };
  return schedule.split(',').map((wait) => Number(wait.slice(0, -1)) * unit[wait.slice(-1)]);
}

export function loadEnvironment(source: NodeJS.ProcessEnv = process.env): Environment {
  const env = plainToInstance(Environment, { ...source }, { exposeDefaultValues: true });
  const errors = validateSync(env, { skipMissingProperties: false, whitelist: false });
  if (errors.length > 0) {
    const lines = errors.flatMap((e) => Object.values(e.constraints ?? {}).map((m) => `${e.property}: ${m}`));
    throw new EnvironmentError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return env;
}
