import type { Transaction } from '@pcs/kernel';
import type { CircuitOpened } from './processor-circuits';

/** One success rate (contract §26): the approved share of the attempts that ended at a processor, over a window. */
export interface SuccessRate {
  readonly provider: string;
  /** Null where the figure is the merchant's across its methods and countries. */
  readonly paymentMethod: string | null;
  readonly country: string | null;
  readonly merchantId: string | null;
  readonly window: '1h' | '1d';
  /** 0–1; null when no attempt ended in the window. */
  readonly rate: number | null;
  readonly attempts: number;
}

/**
 * What the processors' health reads and writes (contract §26): success rates from the attempts
 * (an attempt ended APPROVED, or REJECTED: by the processor, or because it could not be reached;
 * cancelled and expired attempts are the payer's, not the processor's), and the event
 * processor.degraded when a processor account's circuit opens.
 */
export abstract class ProcessorHealthRecords {
  /** Every merchant together, by provider, method and country, over the last hour and day. */
  abstract successRates(tx: Transaction): Promise<SuccessRate[]>;
  /** These merchants', by merchant and provider, over the last hour and day. */
  abstract merchantSuccessRates(tx: Transaction, merchantIds: readonly string[]): Promise<SuccessRate[]>;
  /** These merchants', by merchant, provider, method and country, over the last hour and day (the dashboard). */
  abstract merchantMethodSuccessRates(tx: Transaction, merchantIds: readonly string[]): Promise<SuccessRate[]>;
  /** The business's merchants (not deleted). */
  abstract merchantsOf(tx: Transaction, businessId: string): Promise<string[]>;
  /** Records processor.degraded for the merchant's business (nothing for a merchant that is gone). */
  abstract recordDegraded(tx: Transaction, opened: CircuitOpened): Promise<void>;
}
