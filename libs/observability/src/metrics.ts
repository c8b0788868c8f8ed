import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Where a queue's jobs stand: waiting (created or to retry) and being worked. */
export interface QueueDepth {
  readonly queue: string;
  readonly waiting: number;
  readonly active: number;
}

export type QueueDepthSource = () => Promise<readonly QueueDepth[]>;
/** Per provider: the worst state of its accounts' circuits (0 closed, 1 half-open, 2 open) and how many are open. */
export type CircuitStateSource = () => readonly { provider: string; state: number; open: number }[];
/** Success rates (0–1) per provider, method, country and window (1h, 1d). */
export type SuccessRateSource = () => Promise<
  readonly { provider: string; paymentMethod: string; country: string; window: '1h' | '1d'; rate: number }[]
>;

/**
 * The process's Prometheus metrics (prom-client), served at /metrics by each
 * API. One registry per process, as Prometheus clients keep it: counters
 * count what this process did, and Prometheus sums the processes. No label
 * carries a tenant, an id or an amount: route templates, statuses and outcomes
 * only, so the series stay few and say nothing about anyone's business.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status, in seconds',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly replicaReads = new Counter({
    name: 'pcs_replica_reads_total',
    help: 'Reads that may be served by the read replica (ledger, balance transactions, reports), by where they went: replica or primary',
    labelNames: ['target'] as const,
    registers: [this.registry],
  });

  readonly replicaLag = new Gauge({
    name: 'pcs_replica_lag_seconds',
    help: "The read replica's measured lag behind the primary in seconds (-1: not configured or not answering)",
    registers: [this.registry],
  });

  readonly paymentOutcomes = new Counter({
    name: 'pcs_payment_outcomes_total',
    help: 'Payment intents reaching an outcome: succeeded, payment_failed, canceled',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly refunds = new Counter({
    name: 'pcs_refunds_total',
    help: 'Refunds by outcome: created, succeeded, failed',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'pcs_webhook_deliveries_total',
    help: 'Webhook delivery attempts by result: delivered, retry (to be tried again), failed (given up), disabled (410 from the receiver)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly mailDeliveries = new Counter({
    name: 'pcs_mail_deliveries_total',
    help: 'Attempts to hand an email to the SMTP server by result: sent, or error (the queue tries again with backoff)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly gatewayRequests = new Histogram({
    name: 'pcs_gateway_request_duration_seconds',
    help: 'Requests to outside processors by provider, operation and outcome (ok, rejected: a 4xx, failed: a 5xx, timeout, unreachable), in seconds',
    labelNames: ['provider', 'operation', 'outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly reconciliationRuns = new Counter({
    name: 'pcs_reconciliation_runs_total',
    help: "Reconciliations of a processor's report by provider and result: completed, failed",
    labelNames: ['provider', 'result'] as const,
    registers: [this.registry],
  });

  readonly reconciliationDiscrepancies = new Counter({
    name: 'pcs_reconciliation_discrepancies_total',
    help: 'Discrepancies found reconciling processor reports, by provider and kind (AMOUNT_MISMATCH, FEE_MISMATCH, MISSING_HERE, MISSING_THERE)',
    labelNames: ['provider', 'kind'] as const,
    registers: [this.registry],
  });

  readonly payouts = new Counter({
    name: 'pcs_payouts_total',
    help: 'Payouts by status reached: created, in_transit, paid, failed, canceled',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  readonly invoices = new Counter({
    name: 'pcs_invoices_total',
    help: "Subscriptions' invoices (contract §31) by what happened: issued, paid, declined (soft or hard: one per charge), uncollectible (dunning ended), void",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'pcs_rate_limited_total',
    help: 'Requests refused with 429 by limit: reads and writes (per api-key), address (unauthenticated, per client address)',
    labelNames: ['limit'] as const,
    registers: [this.registry],
  });

  readonly cardTestingBlocks = new Counter({
    name: 'pcs_card_testing_blocks_total',
    help: 'Blocks the card-testing guard of the public pages opened (contract §30), by scope (CARD, ADDRESS, LINK) and reason',
    labelNames: ['scope', 'reason'] as const,
    registers: [this.registry],
  });

  readonly cardTestingRefusals = new Counter({
    name: 'pcs_card_testing_refusals_total',
    help: 'Attempts the public pages refused with 429 while a card-testing block lasted, by page (LINK, CHECKOUT, SANDBOX)',
    labelNames: ['page'] as const,
    registers: [this.registry],
  });

  readonly authRefusals = new Counter({
    name: 'pcs_auth_refusals_total',
    help: 'Signed requests refused by reason: missing (headers), signature, version (below the credential floor), version-required (below the route), stale (time), replay (401); scope (403, a restricted credential outside its scopes)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  private readonly queueSources = new Set<QueueDepthSource>();
  private readonly circuitSources = new Set<CircuitStateSource>();
  private readonly successRateSources = new Set<SuccessRateSource>();

  constructor() {
    const sources = this.queueSources;
    const circuits = this.circuitSources;
    const rates = this.successRateSources;
    new Gauge({
      name: 'pcs_processor_circuit_state',
      help: 'Circuit breakers of processor accounts (contract §26), by provider: the worst of its accounts in this process (0 closed, 1 half-open, 2 open)',
      labelNames: ['provider'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const source of circuits) for (const { provider, state } of source()) this.set({ provider }, state);
      },
    });
    new Gauge({
      name: 'pcs_processor_circuits_open',
      help: 'Processor accounts whose circuit is open now in this process (contract §26), by provider',
      labelNames: ['provider'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const source of circuits) for (const { provider, open } of source()) this.set({ provider }, open);
      },
    });
    new Gauge({
      name: 'pcs_processor_success_rate',
      help: 'Approved share of the collection attempts that ended (approved or refused, unreachable included), by provider, method and country, over the last hour (1h) or day (1d); every merchant together',
      labelNames: ['provider', 'payment_method', 'country', 'window'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const source of rates)
          for (const rate of await source().catch(() => []))
            this.set(
              { provider: rate.provider, payment_method: rate.paymentMethod, country: rate.country, window: rate.window },
              rate.rate,
            );
      },
    });
    new Gauge({
      name: 'pcs_queue_jobs',
      help: 'Background jobs (pg-boss) by queue and state: waiting (created or to retry) or active',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const source of sources) {
          for (const depth of await source().catch(() => [])) {
            this.set({ queue: depth.queue, state: 'waiting' }, depth.waiting);
            this.set({ queue: depth.queue, state: 'active' }, depth.active);
          }
        }
      },
    });
    collectDefaultMetrics({ register: this.registry });
  }

  /** The processors' circuit breakers report their state at each scrape; the returned function stops it. */
  observeCircuits(source: CircuitStateSource): () => void {
    this.circuitSources.add(source);
    return () => this.circuitSources.delete(source);
  }

  /** Success rates are read at each scrape; the returned function stops it. */
  observeSuccessRates(source: SuccessRateSource): () => void {
    this.successRateSources.add(source);
    return () => this.successRateSources.delete(source);
  }

  /** A job queue reports its depth at each scrape; the returned function stops it. */
  observeQueues(source: QueueDepthSource): () => void {
    this.queueSources.add(source);
    return () => this.queueSources.delete(source);
  }

  /** Counts a recorded domain event's outcome (called once it committed). */
  countEvent(type: string): void {
    const [subject, outcome] = type.split('.');
    if (subject === 'payment_intent' && ['succeeded', 'payment_failed', 'canceled'].includes(outcome))
      this.paymentOutcomes.inc({ outcome });
    if (subject === 'refund') this.refunds.inc({ outcome });
  }
}

/** The process's metrics. */
export const metrics = new Metrics();
