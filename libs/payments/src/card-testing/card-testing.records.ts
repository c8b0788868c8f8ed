import type { Transaction } from '@pcs/kernel';

/** Where a public page's attempt came from (contract §30), by payment intent: the latest start's. */
export interface AttemptOrigin {
  readonly paymentIntentId: string;
  readonly merchantId: string;
  readonly page: CardTestingPage;
  readonly addressKey: string;
  readonly addressHint: string;
  /** The sale (a link, or a B2B checkout's intent): its key, and its id as the dashboard shows it. */
  readonly saleKey: string | null;
  readonly saleId: string | null;
  /** The card typed on the sandbox's page, keyed (a processor's page reports its card with the outcome instead). */
  readonly cardKey: string | null;
}

export type CardTestingPage = 'LINK' | 'CHECKOUT' | 'SANDBOX';
export type CardTestingScope = 'CARD' | 'ADDRESS' | 'LINK';
export type CardTestingReason = 'DECLINES_PER_CARD' | 'DECLINES_PER_ADDRESS' | 'ATTEMPTS_PER_ADDRESS' | 'DECLINES_PER_LINK';

/** A card, address or sale refused for a while (contract §30). */
export interface CardTestingBlock {
  readonly blockId: string;
  readonly merchantId: string;
  readonly scope: CardTestingScope;
  readonly subjectKey: string;
  readonly reason: CardTestingReason;
  /** The count that reached the limit. */
  readonly count: number;
  /** An address with its last part masked, a fingerprint's first characters, or the sale's id. */
  readonly hint: string;
  readonly page: CardTestingPage;
  readonly saleId: string | null;
  readonly startedAt: Date;
  readonly until: Date;
}

/** What one subject counted within the window. */
export interface CardTestingCounts {
  readonly attemptsPerAddress: number;
  readonly declinesPerAddress: number;
  readonly declinesPerCard: number;
  readonly declinesPerSale: number;
}

/**
 * The card-testing guard's records (contract §30): origins, the marks counted
 * (keyed hashes only) and the blocks. A block is opened once per subject while
 * one lasts (a lock per subject orders two declines arriving together).
 */
export abstract class CardTestingRecords {
  /** The block of these subjects that lasts longest, while one lasts. */
  abstract activeBlock(tx: Transaction, merchantId: string, subjectKeys: readonly string[], now: Date): Promise<CardTestingBlock | null>;
  /** Records an attempt started from a public page: its origin (replacing an earlier start's) and its mark. */
  abstract recordStart(tx: Transaction, origin: AttemptOrigin, now: Date): Promise<void>;
  /** The card typed on the sandbox's page, on the attempt's origin (made with the sandbox page's address when the attempt had none). */
  abstract recordSandboxCard(tx: Transaction, origin: AttemptOrigin, now: Date): Promise<void>;
  abstract originOf(tx: Transaction, paymentIntentId: string): Promise<AttemptOrigin | null>;
  /** The intent and merchant of a sandbox checkout (its reference). */
  abstract sandboxAttempt(tx: Transaction, reference: string): Promise<{ paymentIntentId: string; merchantId: string } | null>;
  abstract recordDecline(
    tx: Transaction,
    decline: { merchantId: string; addressKey: string; cardKey: string | null; saleKey: string | null },
    now: Date,
  ): Promise<void>;
  abstract counts(
    tx: Transaction,
    merchantId: string,
    subjects: { addressKey: string; cardKey: string | null; saleKey: string | null },
    since: Date,
  ): Promise<CardTestingCounts>;
  /** Opens the block unless one of its subject lasts; true when opened (its event recorded in the same transaction). */
  abstract openBlock(tx: Transaction, block: CardTestingBlock): Promise<boolean>;
  /** The merchant's blocks started since, newest first. */
  abstract blocksOf(tx: Transaction, merchantId: string, since: Date, limit: number): Promise<CardTestingBlock[]>;
  /** Forgets marks older than this (nothing counts them any more). */
  abstract forgetBefore(tx: Transaction, before: Date): Promise<void>;
}

/** A block as the API and the event card_testing.suspected show it: no key, only its hint. */
export function cardTestingBlockObject(b: CardTestingBlock): Record<string, unknown> {
  return {
    blockId: b.blockId,
    merchantId: b.merchantId,
    scope: b.scope,
    reason: b.reason,
    count: b.count,
    hint: b.hint,
    page: b.page,
    saleId: b.saleId,
    startedAt: b.startedAt.toISOString(),
    until: b.until.toISOString(),
  };
}
