/** What the dashboard needs at run time (contract §18), resolved once at start-up; a class only to be Nest's injection token. */
export abstract class DashboardSettings {
  /** Its own tables (dashboard_*): people, sessions, the audit log. */
  abstract readonly databaseUrl: string;
  /** DATABASE_DIRECT_URL: the same database without a pooler in between, for the change feed's LISTEN; databaseUrl by default. */
  abstract readonly sessionDatabaseUrl?: string;
  /** The payins API it reads and changes payments through, and the business credential it signs with. */
  abstract readonly payinsApiUrl: string;
  abstract readonly apiKey: string;
  abstract readonly apiSecret: string;
  /** How long one request to the payins API may take (10 s unless a test says less); then the page is a 503. */
  abstract readonly payinsTimeoutMs?: number;
  /** Another fetch for the payins client (tests); the global one by default. */
  abstract readonly fetch?: typeof fetch;
  /** Express's `trust proxy` (TRUST_PROXY): the client address sign-in throttling counts, and whether a request came over https. */
  abstract readonly trustProxy: boolean | number | string;
  /** The master key (SECRETS_MASTER_KEY) that seals the people's second-factor seeds. */
  abstract readonly secretsMasterKey: Buffer;
  /** SECRETS_MASTER_KEY_PREVIOUS, during a rotation of the master key: read, never written with. */
  abstract readonly secretsMasterKeyPrevious?: Buffer | null;
  /** The generations before secretsMasterKeyPrevious (newest first): kept so that every audit entry stays verifiable (contract §29). */
  abstract readonly earlierMasterKeys?: readonly Buffer[];
  /** Where the audit chain's head is written every minute, outside the database (DATA_DIR/audit-head.json); none in tests that do not ask. */
  abstract readonly auditHeadFile?: string;
  /** AUDIT_ANCHOR_URL: where the head is also sent every minute and at shutdown, off the host (contract §27); none by default. */
  abstract readonly auditAnchorUrl?: string;
  /** AUDIT_ANCHOR_TOKEN: the bearer token sent with every head (contract §29). */
  abstract readonly auditAnchorToken?: string;
  /** DASHBOARD_IDLE_MINUTES: 15 at most, and by default. */
  abstract readonly idleMinutes?: number;
}
