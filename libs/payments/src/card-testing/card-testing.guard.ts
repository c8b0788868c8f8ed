import { Injectable } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import type { CardParts } from '@pcs/gateways';
import { Caller, DomainError, MerchantId, Transaction, UnitOfWork } from '@pcs/kernel';
import { CardTestingGuardSettings, MerchantAccess, MerchantConfigurationService } from '@pcs/merchants';
import { metrics } from '@pcs/observability';
import * as crypto from 'node:crypto';
import {
  AttemptOrigin,
  CardTestingBlock,
  CardTestingPage,
  CardTestingReason,
  CardTestingRecords,
  CardTestingScope,
} from './card-testing.records';

/** How long the dashboard's list looks back. */
const LISTED_DAYS = 7;
/** Marks older than the longest window are forgotten (one in this many declines does it). */
const FORGET_EVERY = 200;
const LONGEST_WINDOW_MS = 1440 * 60_000;

/** An attempt from a public page: the payer's client address and the sale (a link, or a B2B checkout's intent). */
export interface PublicAttempt {
  readonly page: CardTestingPage;
  readonly merchantId: MerchantId | string;
  readonly address: string;
  readonly saleId: string | null;
}

/**
 * The card-testing guard of the public pages (contract §30). Declined or failed
 * attempts started from the link pay page, the B2B checkout or the sandbox's
 * page are counted per card fingerprint (a keyed hash of BIN, last four and
 * expiry, when the processor reports them or the sandbox's page was given
 * them), per client address and per sale; attempts are counted per address.
 * Over a merchant's limit within its window, the card, the address or the
 * sale is refused for its block time (429), `card_testing.suspected` is
 * recorded once per block, and /metrics counts it. An attempt the merchant's
 * own signed API starts never passes here, so it is never refused.
 *
 * Keys are HMAC-SHA256 under a key derived from the master key (HKDF, "pcs card
 * testing v1"): the database never holds an address, a BIN or last four in
 * clear. A rotation of the master key starts the counts afresh.
 */
@Injectable()
export class CardTestingGuard {
  private readonly key: Buffer;
  private declines = 0;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly records: CardTestingRecords,
    private readonly configurations: MerchantConfigurationService,
    private readonly access: MerchantAccess,
    settings: RuntimeSettings,
  ) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', settings.secretsMasterKey, Buffer.alloc(0), 'pcs card testing v1', 32));
  }

  /** The keyed hash of a subject; `kind` keeps an address and a card from ever sharing one. */
  keyOf(kind: 'address' | 'card' | 'sale', value: string): string {
    return crypto.createHmac('sha256', this.key).update(`${kind}\u0000${value}`).digest('hex');
  }

  /** A card's fingerprint: BIN (6 or 8 digits), last four and expiry (MM/YY), all three or none. */
  cardKeyOf(card: CardParts | undefined): string | null {
    if (!card) return null;
    return this.keyOf('card', `${card.bin}|${card.last4}|${card.expiry}`);
  }

  /**
   * Refuses (429 TOO_MANY_ATTEMPTS, `retryAfter` in seconds) a new attempt while a block of its
   * address, its sale or its card lasts; nothing when the merchant's guard (`settings`) is off.
   */
  private async refuseWhileBlocked(
    attempt: PublicAttempt,
    card: CardParts | null,
    settings: CardTestingGuardSettings,
    tx: Transaction = this.unitOfWork.outside,
  ): Promise<void> {
    if (!settings.enabled) return;
    const keys = [this.keyOf('address', attempt.address)];
    if (attempt.saleId) keys.push(this.keyOf('sale', attempt.saleId));
    const cardKey = this.cardKeyOf(card ?? undefined);
    if (cardKey) keys.push(cardKey);
    const now = new Date();
    const block = await this.records.activeBlock(tx, attempt.merchantId, keys, now);
    if (!block) return;
    metrics.cardTestingRefusals.inc({ page: attempt.page });
    throw new DomainError('TOO_MANY_ATTEMPTS', `${block.scope} blocked until ${block.until.toISOString()}`, {
      retryAfter: Math.max(1, Math.ceil((block.until.getTime() - now.getTime()) / 1000)),
    });
  }

  /**
   * A new attempt from the link pay page or the B2B checkout: refused while a block of its address or sale
   * lasts, and refused once its address has started `maxAttemptsPerAddress` attempts within the window
   * (that block opened then: the attempt that reached the limit was let through to its end).
   */
  async refuseNewAttempt(attempt: PublicAttempt): Promise<void> {
    const settings = await this.settingsOf(attempt.merchantId);
    if (!settings.enabled) return;
    await this.refuseWhileBlocked(attempt, null, settings);
    const now = new Date();
    const origin = this.originOf(attempt, '', null);
    const counts = await this.records.counts(
      this.unitOfWork.outside,
      origin.merchantId,
      { addressKey: origin.addressKey, cardKey: null, saleKey: null },
      windowStart(settings, now),
    );
    if (counts.attemptsPerAddress < settings.maxAttemptsPerAddress) return;
    await this.unitOfWork.run((tx) =>
      this.open(
        tx,
        origin,
        settings,
        now,
        'ADDRESS',
        origin.addressKey,
        'ATTEMPTS_PER_ADDRESS',
        counts.attemptsPerAddress,
        origin.addressHint,
      ),
    );
    await this.refuseWhileBlocked(attempt, null, settings);
  }

  /** An attempt was started from a public page for this intent: its origin and its mark. */
  async started(attempt: PublicAttempt, paymentIntentId: string): Promise<void> {
    const settings = await this.settingsOf(attempt.merchantId);
    if (!settings.enabled) return;
    const origin = this.originOf(attempt, paymentIntentId, null);
    await this.unitOfWork.run((tx) => this.records.recordStart(tx, origin, new Date()));
  }

  /**
   * The sandbox's page was given a card (contract §30): refused while its card, address or sale is
   * blocked; otherwise its fingerprint is kept on the attempt's origin, which the sandbox's page
   * makes itself (its address, the intent as the sale) when the attempt had none.
   */
  async atSandboxPage(reference: string, address: string, card: CardParts | null): Promise<void> {
    const attempt = await this.records.sandboxAttempt(this.unitOfWork.outside, reference);
    if (!attempt) return;
    const existing = await this.records.originOf(this.unitOfWork.outside, attempt.paymentIntentId);
    const publicAttempt: PublicAttempt = {
      page: existing?.page ?? 'SANDBOX',
      merchantId: attempt.merchantId,
      address,
      saleId: existing?.saleId ?? attempt.paymentIntentId,
    };
    const settings = await this.settingsOf(attempt.merchantId);
    if (!settings.enabled) return;
    await this.refuseWhileBlocked(publicAttempt, card, settings);
    const origin = existing
      ? { ...existing, cardKey: this.cardKeyOf(card ?? undefined) }
      : this.originOf({ ...publicAttempt, page: 'SANDBOX' }, attempt.paymentIntentId, this.cardKeyOf(card ?? undefined));
    await this.unitOfWork.run((tx) => this.records.recordSandboxCard(tx, origin, new Date()));
  }

  /**
   * An attempt of this intent was declined or failed (in the transaction that records it): counted
   * when it started from a public page, and a block opened for each limit it reaches.
   */
  async declined(tx: Transaction, paymentIntentId: string, card: CardParts | undefined): Promise<void> {
    const origin = await this.records.originOf(tx, paymentIntentId);
    if (!origin) return;
    const settings = await this.settingsOf(origin.merchantId, tx);
    if (!settings.enabled) return;
    const now = new Date();
    const cardKey = this.cardKeyOf(card) ?? origin.cardKey;
    await this.records.recordDecline(
      tx,
      { merchantId: origin.merchantId, addressKey: origin.addressKey, cardKey, saleKey: origin.saleKey },
      now,
    );
    const counts = await this.records.counts(
      tx,
      origin.merchantId,
      { addressKey: origin.addressKey, cardKey, saleKey: origin.saleKey },
      windowStart(settings, now),
    );
    if (cardKey && counts.declinesPerCard >= settings.maxDeclinesPerCard)
      await this.open(
        tx,
        origin,
        settings,
        now,
        'CARD',
        cardKey,
        'DECLINES_PER_CARD',
        counts.declinesPerCard,
        `card ${cardKey.slice(0, 12)}`,
      );
    if (counts.declinesPerAddress >= settings.maxDeclinesPerAddress)
      await this.open(
        tx,
        origin,
        settings,
        now,
        'ADDRESS',
        origin.addressKey,
        'DECLINES_PER_ADDRESS',
        counts.declinesPerAddress,
        origin.addressHint,
      );
    if (origin.saleKey && counts.declinesPerSale >= settings.maxDeclinesPerAddress)
      await this.open(
        tx,
        origin,
        settings,
        now,
        'LINK',
        origin.saleKey,
        'DECLINES_PER_LINK',
        counts.declinesPerSale,
        `${origin.page === 'LINK' ? 'link' : 'payment intent'} ${origin.saleId}`,
      );
    if (++this.declines % FORGET_EVERY === 0) await this.records.forgetBefore(tx, new Date(now.getTime() - LONGEST_WINDOW_MS));
  }

  /** The merchant's blocks of the last week, newest first (the dashboard's list). */
  async blocksOf(caller: Caller, merchantId: MerchantId): Promise<{ blocks: CardTestingBlock[]; settings: CardTestingGuardSettings }> {
    await this.access.loadVisible(caller, merchantId);
    const since = new Date(Date.now() - LISTED_DAYS * 86_400_000);
    return {
      blocks: await this.records.blocksOf(this.unitOfWork.outside, merchantId, since, 200),
      settings: await this.settingsOf(merchantId),
    };
  }

  private settingsOf(merchantId: string, tx: Transaction = this.unitOfWork.outside): Promise<CardTestingGuardSettings> {
    return this.configurations.cardTestingGuardFor(merchantId as MerchantId, tx);
  }

  private originOf(attempt: PublicAttempt, paymentIntentId: string, cardKey: string | null): AttemptOrigin {
    return {
      paymentIntentId,
      merchantId: attempt.merchantId,
      page: attempt.page,
      addressKey: this.keyOf('address', attempt.address),
      addressHint: addressHint(attempt.address),
      saleKey: attempt.saleId ? this.keyOf('sale', attempt.saleId) : null,
      saleId: attempt.saleId,
      cardKey,
    };
  }

  private async open(
    tx: Transaction,
    origin: AttemptOrigin,
    settings: CardTestingGuardSettings,
    now: Date,
    scope: CardTestingScope,
    subjectKey: string,
    reason: CardTestingReason,
    count: number,
    hint: string,
  ): Promise<void> {
    const block: CardTestingBlock = {
      blockId: crypto.randomUUID(),
      merchantId: origin.merchantId,
      scope,
      subjectKey,
      reason,
      count,
      hint,
      page: origin.page,
      saleId: origin.saleId,
      startedAt: now,
      until: new Date(now.getTime() + settings.blockMinutes * 60_000),
    };
    if (await this.records.openBlock(tx, block)) this.unitOfWork.afterCommit(tx, () => metrics.cardTestingBlocks.inc({ scope, reason }));
  }
}

function windowStart(settings: CardTestingGuardSettings, now: Date): Date {
  return new Date(now.getTime() - settings.windowMinutes * 60_000);
}

/** An address as the dashboard shows it: IPv4 with its last octet masked, IPv6 to its /64. */
export function addressHint(address: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(address);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.x`;
  if (address.includes(':')) return `${address.split(':').slice(0, 4).join(':')}::/64`;
  return 'unknown';
}
