import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SecretBox } from './secret-box';
import { Environment, EnvironmentError } from './environment';

/** Where a processor's API is, and how long one request to it may take (reconciliation settles what timed out). */
export interface ProcessorApi {
  readonly url: string;
  readonly timeoutMs: number;
  /** The processor's script of card fields for the payer's browser (contract §31's setup page), when it has one. */
  readonly browserScript?: string;
}

export interface GatewaySettings {
  /** How long a payer has at a gateway's page before the attempt expires. */
  readonly sessionMinutes: number;
  /** How long the sandbox keeps an off-session charge ending in 14 pending. */
  readonly sandboxSettleSeconds: number;
  /** How often the background sweeps run. */
  readonly sweepSeconds: number;
  /**
   * How long a charge or refund may wait for its gateway's answer before the
   * gateway is asked about it (crash recovery): longer than any gateway call
   * takes, short enough that nothing stays open long after a restart.
   */
  readonly reconcileAfterSeconds: number;
  /** How long a B2B checkout stays open unpaid (CHECKOUT_MINUTES); its intent is then cancelled as EXPIRED. */
  readonly checkoutMinutes: number;
  /**
   * Each processor's API (by the processor's name: its address and the bound on each request to it), read
   * from the environment (`processorApisOf`). A processor not listed is at its own default address.
   */
  readonly processorApis: Readonly<Record<string, ProcessorApi>>;
  /**
   * A processor account's circuit breaker (contract §26): it opens after `breakerFailures`
   * consecutive unreachable answers within `breakerWindowMs`, for `breakerOpenMs`
   * (PROCESSOR_BREAKER_OPEN_SECONDS), then lets one attempt through.
   */
  readonly breakerFailures: number;
  readonly breakerWindowMs: number;
  readonly breakerOpenMs: number;
}

export const DEFAULT_GATEWAY_SETTINGS: GatewaySettings = {
  sessionMinutes: 30,
  sandboxSettleSeconds: 20,
  sweepSeconds: 5,
  reconcileAfterSeconds: 30,
  checkoutMinutes: 1440,
  processorApis: {},
  breakerFailures: 5,
  breakerWindowMs: 60_000,
  breakerOpenMs: 30_000,
};

/**
 * Where mail goes (contract §15): an SMTP server, or on the embedded default
 * without one, `.eml` files in a folder a developer can open.
 */
export interface MailSettings {
  readonly smtpUrl: string | null;
  readonly directory: string | null;
  readonly from: string;
  /** How often the mail worker looks for messages, and how long it first waits before retrying one. */
  readonly pollSeconds: number;
  readonly retryDelaySeconds: number;
  /** The job queue's name: every replica of a deployment works the same one. */
  readonly queue: string;
}

export const DEFAULT_MAIL_FROM = 'Pagos <no-reply@localhost>';
export const DEFAULT_MAIL_SETTINGS: MailSettings = {
  smtpUrl: null,
  directory: null,
  from: DEFAULT_MAIL_FROM,
  pollSeconds: 2,
  retryDelaySeconds: 5,
  queue: 'mail',
};

/** Events and webhooks (contract §14). */
export interface WebhookSettings {
  /** Waits before each retry of a delivery that failed; after the last, the delivery is marked failed. */
  readonly retryScheduleSeconds: readonly number[];
  /** Whether http://localhost and http://127.0.0.1 are allowed (development only). */
  readonly allowLocalhost: boolean;
  /** How long a receiver has to answer (15 s; shorter only in tests). */
  readonly timeoutMs: number;
  /** How often the workers look for jobs. */
  readonly pollSeconds: number;
  /** The job queues' names: every replica of a deployment works the same ones. */
  readonly dispatchQueue: string;
  readonly deliveryQueue: string;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  retryScheduleSeconds: [5, 300, 1800, 7200, 18000, 36000, 36000],
  allowLocalhost: false,
  timeoutMs: 15_000,
  pollSeconds: 1,
  dispatchQueue: 'event-dispatch',
  deliveryQueue: 'webhook-delivery',
};

/** After the collection (contract §19): how payouts leave, and the background work of balances and reports. */
export interface SettlementSettings {
  /** The rail payouts leave by: SANDBOX or BANK_FILE. */
  readonly payoutRail: 'SANDBOX' | 'BANK_FILE';
  /** How long a sandbox payout stays in transit (PAYOUT_SANDBOX_DELAY). */
  readonly sandboxPayoutDelaySeconds: number;
  /** How long payouts to a new or changed settlement account wait (SETTLEMENT_ACCOUNT_HOLD_HOURS; contract §24). */
  readonly accountHoldHours: number;
  /** How often the payout worker looks for jobs. */
  readonly pollSeconds: number;
  /** The payout job queue's name: every replica of a deployment works the same one. */
  readonly payoutQueue: string;
}

export const DEFAULT_SETTLEMENT_SETTINGS: SettlementSettings = {
  payoutRail: 'SANDBOX',
  sandboxPayoutDelaySeconds: 10,
  accountHoldHours: 72,
  pollSeconds: 2,
  payoutQueue: 'payout',
};

/** Work done once a day per scope (a country's scheduled payouts, a merchant's reconciliation), whatever the number of processes. */
export interface DailyRunSettings {
  /** Whether this process claims the day's runs when their hour comes (DAILY_RUNS); its worker runs claimed ones either way. */
  readonly claim: boolean;
  /** How often this process looks for runs whose hour has come. */
  readonly checkSeconds: number;
  /** The job queue of claimed runs. */
  readonly queue: string;
}

export const DEFAULT_DAILY_RUN_SETTINGS: DailyRunSettings = { claim: true, checkSeconds: 60, queue: 'daily-run' };

/** The sandbox's decisions of disputes (contract §23). */
export const SANDBOX_DECISION_QUEUE = 'dispute-sandbox-decision';

/**
 * Every job queue of a deployment: created by the migration step as the owner
 * (contract §30), so the runtime role never calls pg-boss's `create_queue`.
 */
export const SERVICE_QUEUES: readonly string[] = [
  DEFAULT_MAIL_SETTINGS.queue,
  DEFAULT_WEBHOOK_SETTINGS.dispatchQueue,
  DEFAULT_WEBHOOK_SETTINGS.deliveryQueue,
  DEFAULT_SETTLEMENT_SETTINGS.payoutQueue,
  DEFAULT_DAILY_RUN_SETTINGS.queue,
  SANDBOX_DECISION_QUEUE,
];

/** How long a request holds its Idempotency-Key before a retry may take the key over (a request that died). */
export const DEFAULT_IDEMPOTENCY_LEASE_SECONDS = 60;

/**
 * Rate limits (contract §17): per api-key for signed reads and writes, per
 * client address for everything unauthenticated; each allows a burst of
 * twice its rate. Shared by every process through PostgreSQL.
 */
export interface RateLimitSettings {
  /** RATE_LIMITS=off: nothing is counted (something in front already limits). */
  readonly enabled: boolean;
  readonly readsPerSecond: number;
  readonly writesPerSecond: number;
  readonly addressPerSecond: number;
  /** Express's `trust proxy`: false, a hop count, or addresses and subnets of the proxies in front. */
  readonly trustProxy: boolean | number | string;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  enabled: true,
  readsPerSecond: 200,
  writesPerSecond: 50,
  addressPerSecond: 50,
  trustProxy: false,
};

/** TRUST_PROXY as Express takes it. */
export function trustProxyOf(value: string): boolean | number | string {
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * What an app needs at run time, resolved once at start-up from the
 * environment (and DATA_DIR for the embedded default). Injected as a value.
 */
export class RuntimeSettings {
  constructor(
    readonly databaseUrl: string,
    /** 32-byte key that encrypts credential secrets at rest. */
    readonly secretsMasterKey: Buffer,
    /** Absolute base of URLs handed to payers, without a trailing slash. */
    readonly publicBaseUrl: string,
    readonly poolSize: number = 10,
    readonly gateway: GatewaySettings = DEFAULT_GATEWAY_SETTINGS,
    readonly idempotencyLeaseSeconds: number = DEFAULT_IDEMPOTENCY_LEASE_SECONDS,
    readonly mail: MailSettings = DEFAULT_MAIL_SETTINGS,
    readonly webhooks: WebhookSettings = DEFAULT_WEBHOOK_SETTINGS,
    readonly rateLimits: RateLimitSettings = DEFAULT_RATE_LIMITS,
    /** DATABASE_PREPARED_STATEMENTS: hot statements as named prepared statements. */
    readonly preparedStatements: boolean = true,
    readonly settlement: SettlementSettings = DEFAULT_SETTLEMENT_SETTINGS,
    readonly dailyRuns: DailyRunSettings = DEFAULT_DAILY_RUN_SETTINGS,
    /** SECRETS_MASTER_KEY_PREVIOUS: opens what it sealed while a rotation of the master key is under way; never seals. */
    readonly secretsMasterKeyPrevious: Buffer | null = null,
    /** DATABASE_REPLICA_URL and DATABASE_REPLICA_MAX_LAG_SECONDS: the read replica, if any. */
    readonly readReplica: { readonly url: string; readonly maxLagSeconds: number } | null = null,
    /** DATABASE_DIRECT_URL: the database without a pooler in between, for sessions (LISTEN, session locks); null: databaseUrl. */
    readonly databaseDirectUrl: string | null = null,
    /** METRICS_TOKEN: when set, /metrics answers only a request bearing it (contract §27); null: open to the operator's network. */
    readonly metricsToken: string | null = null,
    /** The generations of SECRETS_MASTER_KEY_PREVIOUS older than secretsMasterKeyPrevious (newest first): read, never written with. */
    readonly earlierMasterKeys: readonly Buffer[] = [],
  ) {}

  /** Every generation of the master key, the current first (contract §29): what opens secrets and verifies the audit. */
  get masterKeyRing(): Buffer[] {
    return masterKeyRing(this.secretsMasterKey, [this.secretsMasterKeyPrevious, ...this.earlierMasterKeys]);
  }

  /** Where a connection that needs a session of its own goes (LISTEN, session-level advisory locks, migrations). */
  get sessionDatabaseUrl(): string {
    return this.databaseDirectUrl ?? this.databaseUrl;
  }

  /** The box every sealed secret goes through: sealing with the master key, opening with any generation of the ring. */
  secretBox(): SecretBox {
    const [current, ...earlier] = this.masterKeyRing;
    return new SecretBox(current, earlier);
  }
}

/** The newest of SECRETS_MASTER_KEY_PREVIOUS's generations, decoded, or null. */
export function resolvePreviousMasterKey(env: Environment): Buffer | null {
  return resolveEarlierMasterKeys(env)[0] ?? null;
}

/** Every earlier generation in SECRETS_MASTER_KEY_PREVIOUS, newest first, decoded. */
export function resolveEarlierMasterKeys(env: Environment): Buffer[] {
  return (env.SECRETS_MASTER_KEY_PREVIOUS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key.length > 0)
    .map(decodeKey);
}

/** A master key ring: the current key first, then each earlier generation once (newest first). */
export function masterKeyRing(current: Buffer, earlier: readonly (Buffer | null | undefined)[]): Buffer[] {
  const ring: Buffer[] = [current];
  for (const key of earlier) if (key && !ring.some((kept) => kept.equals(key))) ring.push(key);
  return ring;
}

/**
 * SECRETS_MASTER_KEY when set; otherwise, only for the embedded default,
 * a key generated once into DATA_DIR. A server database without an explicit
 * key is refused: a key that lives beside the data protects nothing.
 */
export function resolveSecretsMasterKey(env: Environment): Buffer {
  if (env.SECRETS_MASTER_KEY) return decodeKey(env.SECRETS_MASTER_KEY);
  if (env.DATABASE_URL) {
    throw new EnvironmentError('SECRETS_MASTER_KEY is required when DATABASE_URL is set (generate one with: openssl rand -base64 32)');
  }
  const file = path.join(env.dataDir, 'secrets-master-key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(env.dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return decodeKey(fs.readFileSync(file, 'utf8').trim());
}

function decodeKey(encoded: string): Buffer {
  const key = Buffer.from(encoded, 'base64');
  if (key.length !== 32) throw new EnvironmentError('SECRETS_MASTER_KEY must decode to exactly 32 bytes');
  return key;
}

export function publicBaseUrlFor(env: Environment, port: number): string {
  return (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
}
