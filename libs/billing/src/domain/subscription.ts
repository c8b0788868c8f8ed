import { BusinessId, Currency, DomainError, MerchantId, PayerId, PaymentInstrumentId } from '@pcs/kernel';
import { BillingCycle, firstPeriodFrom, periodStart } from './billing-calendar';

export const SUBSCRIPTION_STATUSES = ['TRIALING', 'ACTIVE', 'PAST_DUE', 'UNPAID', 'CANCELED', 'PAUSED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** How long before a period's charge its payer is told (contract §31: `invoice.upcoming`, 3 days). */
export const UPCOMING_NOTICE_MS = 3 * 86_400_000;
/** How long before its card expires the payer is told (contract §31: a month; 30 days). */
export const CARD_EXPIRY_NOTICE_MS = 30 * 86_400_000;

export interface SubscriptionProps {
  readonly subscriptionId: string;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  readonly payerId: PayerId;
  paymentInstrumentId: PaymentInstrumentId;
  /** ISO 3166 alpha-3 of the merchant: where its charges are made, and whose time zone the cycle is read in. */
  readonly country: string;
  /** Minor units, from the next period after a change. */
  amount: number;
  readonly currency: Currency;
  readonly cycle: BillingCycle;
  readonly trialEnd: Date | null;
  description: string;
  readonly metadata: Record<string, unknown> | null;
  status: SubscriptionStatus;
  readonly testClockId: string | null;
  /** The next period to invoice (0 first). */
  nextPeriod: number;
  /** When it starts: null while nothing will be invoiced (paused, unpaid, ended). */
  nextPeriodAt: Date | null;
  /** The last period whose payer was told it is coming (−1: none). */
  announcedPeriod: number;
  cancelAtPeriodEnd: boolean;
  /** When the instrument's card stops being usable (the end of its expiry month), when the instrument holds one. */
  cardExpiresAt: Date | null;
  /** Whether the payer was told it expires (once per card). */
  cardExpiryNoticed: boolean;
  /**
   * How long before a period its invoice is made and charged (seconds): 0 for a card (charged on the date); Pix
   * Automático's 3 days (the charge is requested ahead, scheduled for the period's date).
   */
  chargeLeadSeconds: number;
  canceledAt: Date | null;
  endedAt: Date | null;
  pausedAt: Date | null;
  readonly createdAt: Date;
  updatedAt: Date;
  version: number;
}

/** What the scheduler does next for a subscription at a moment. */
export type SubscriptionDue =
  | { readonly kind: 'ANNOUNCE'; readonly period: number }
  | { readonly kind: 'INVOICE'; readonly period: number }
  | { readonly kind: 'CARD_EXPIRY' };

/**
 * A payer's recurring payment to a merchant (contract §31): its cycle, its amount and instrument from the next
 * period after a change, and where it stands. The scheduler invoices period after period while it is TRIALING,
 * ACTIVE or PAST_DUE; a PAUSED subscription invoices nothing until it resumes (the periods it was paused
 * through are not billed); UNPAID and CANCELED are ends the payments of its open invoices may still leave.
 */
export class Subscription {
  private constructor(private readonly props: SubscriptionProps) {}

  static restore(props: SubscriptionProps): Subscription {
    return new Subscription({ ...props });
  }

  static start(
    input: Omit<
      SubscriptionProps,
      | 'status'
      | 'nextPeriod'
      | 'nextPeriodAt'
      | 'announcedPeriod'
      | 'cancelAtPeriodEnd'
      | 'canceledAt'
      | 'endedAt'
      | 'pausedAt'
      | 'updatedAt'
      | 'version'
      | 'cardExpiryNoticed'
      | 'chargeLeadSeconds'
    > & { readonly chargeLeadSeconds?: number },
  ): Subscription {
    return new Subscription({
      ...input,
      chargeLeadSeconds: input.chargeLeadSeconds ?? 0,
      status: input.trialEnd && input.trialEnd > input.createdAt ? 'TRIALING' : 'ACTIVE',
      nextPeriod: 0,
      nextPeriodAt: periodStart(input.cycle, 0),
      // A first period that starts within the notice (at once, or in less than 3 days) is not announced.
      announcedPeriod: periodStart(input.cycle, 0).getTime() - input.createdAt.getTime() < UPCOMING_NOTICE_MS ? 0 : -1,
      cancelAtPeriodEnd: false,
      cardExpiryNoticed: false,
      canceledAt: null,
      endedAt: null,
      pausedAt: null,
      updatedAt: input.createdAt,
      version: 1,
    });
  }

  get id(): string {
    return this.props.subscriptionId;
  }

  snapshot(): Readonly<SubscriptionProps> {
    return this.props;
  }

  /** Whether the scheduler still invoices it (its next period has a date). */
  get invoicing(): boolean {
    return this.props.nextPeriodAt !== null;
  }

  /** When it next falls due for the scheduler: the next period's announcement or its invoice; null when nothing will. */
  nextDueAt(): Date | null {
    const at = this.props.nextPeriodAt;
    if (!at) return null;
    const period = at.getTime() - (this.props.announcedPeriod < this.props.nextPeriod ? UPCOMING_NOTICE_MS : this.leadMs);
    const expires = this.props.cardExpiresAt;
    const expiry = expires && !this.props.cardExpiryNoticed ? expires.getTime() - CARD_EXPIRY_NOTICE_MS : Infinity;
    return new Date(Math.min(period, expiry));
  }

  /** What falls due at `now`, if anything: the period's invoice first, then its announcement, then the card's expiry. */
  dueAt(now: Date): SubscriptionDue | null {
    const at = this.props.nextPeriodAt;
    if (!at) return null;
    if (at.getTime() - this.leadMs <= now.getTime()) return { kind: 'INVOICE', period: this.props.nextPeriod };
    if (this.props.announcedPeriod < this.props.nextPeriod && at.getTime() - UPCOMING_NOTICE_MS <= now.getTime())
      return { kind: 'ANNOUNCE', period: this.props.nextPeriod };
    const expires = this.props.cardExpiresAt;
    if (expires && !this.props.cardExpiryNoticed && expires.getTime() - CARD_EXPIRY_NOTICE_MS <= now.getTime())
      return { kind: 'CARD_EXPIRY' };
    return null;
  }

  /** How long before a period its invoice is made and charged. */
  get leadMs(): number {
    return this.props.chargeLeadSeconds * 1000;
  }

  /** The instrument's card and when it expires (a new card is told of again, a month before its own expiry). */
  cardExpires(at: Date | null): void {
    if (at?.getTime() === this.props.cardExpiresAt?.getTime()) return;
    this.props.cardExpiresAt = at;
    this.props.cardExpiryNoticed = false;
  }

  /** The payer was told the card expires. */
  cardExpiryTold(now: Date): void {
    this.props.cardExpiryNoticed = true;
    this.touch(now);
  }

  /** The next period was announced to the payer. */
  announced(period: number, now: Date): void {
    this.props.announcedPeriod = Math.max(this.props.announcedPeriod, period);
    this.touch(now);
  }

  /**
   * The period due is invoiced: the next one becomes due. A subscription set to cancel at its period's end
   * ends instead, at that period's start (nothing more is invoiced). Answers whether the period is invoiced.
   */
  advance(now: Date): { readonly invoiced: boolean; readonly statusChanged: boolean } {
    const before = this.props.status;
    // Canceled at its period's end: it ends when the next period would start (before the first one, in a trial or
    // before its start date, without ever charging).
    if (this.props.cancelAtPeriodEnd) {
      this.props.status = 'CANCELED';
      this.props.endedAt = this.props.nextPeriodAt ?? now;
      this.props.nextPeriodAt = null;
      this.touch(now);
      return { invoiced: false, statusChanged: true };
    }
    this.props.nextPeriod += 1;
    this.props.nextPeriodAt = periodStart(this.props.cycle, this.props.nextPeriod);
    if (this.props.status === 'TRIALING') this.props.status = 'ACTIVE';
    this.touch(now);
    return { invoiced: true, statusChanged: before !== this.props.status };
  }

  /** The start of period `n`, and its end (the next one's start). */
  period(n: number): { readonly start: Date; readonly end: Date } {
    return { start: periodStart(this.props.cycle, n), end: periodStart(this.props.cycle, n + 1) };
  }

  /** Amount, instrument or description, from the next period (invoices already made keep theirs). */
  change(
    changes: { amount?: number; paymentInstrumentId?: PaymentInstrumentId; description?: string; chargeLeadSeconds?: number },
    now: Date,
  ): void {
    this.requireNot(['CANCELED'], 'update', 'actualizarla');
    if (changes.chargeLeadSeconds !== undefined) this.props.chargeLeadSeconds = changes.chargeLeadSeconds;
    if (changes.amount !== undefined) this.props.amount = changes.amount;
    if (changes.paymentInstrumentId !== undefined) this.props.paymentInstrumentId = changes.paymentInstrumentId;
    if (changes.description !== undefined) this.props.description = changes.description;
    this.touch(now);
  }

  /** Now (its open invoices are voided by the caller), or at the end of the current period. */
  cancel(atPeriodEnd: boolean, now: Date): void {
    this.requireNot(['CANCELED'], 'cancel', 'cancelarla');
    if (atPeriodEnd && this.invoicing) {
      this.props.cancelAtPeriodEnd = true;
      this.props.canceledAt = now;
    } else {
      this.props.status = 'CANCELED';
      this.props.canceledAt = now;
      this.props.endedAt = now;
      this.props.nextPeriodAt = null;
    }
    this.touch(now);
  }

  pause(now: Date): void {
    if (!['TRIALING', 'ACTIVE', 'PAST_DUE'].includes(this.props.status)) this.refuse('pause', 'pausarla');
    this.props.status = 'PAUSED';
    this.props.pausedAt = now;
    this.props.nextPeriodAt = null;
    this.touch(now);
  }

  /**
   * From PAUSED, or UNPAID (dunning ended; the payer has given the merchant another card): billing goes on with the
   * first period that starts from now.
   */
  resume(now: Date): void {
    if (this.props.status !== 'PAUSED' && this.props.status !== 'UNPAID') this.refuse('resume', 'reanudarla');
    this.props.status = this.props.trialEnd && now < this.props.trialEnd ? 'TRIALING' : 'ACTIVE';
    this.props.pausedAt = null;
    this.props.nextPeriod = firstPeriodFrom(this.props.cycle, now, this.props.nextPeriod);
    this.props.nextPeriodAt = periodStart(this.props.cycle, this.props.nextPeriod);
    this.props.announcedPeriod = Math.max(this.props.announcedPeriod, this.props.nextPeriod - 1);
    this.touch(now);
  }

  /** An invoice failed and dunning goes on. Answers whether the status changed. */
  pastDue(now: Date): boolean {
    if (!['ACTIVE', 'TRIALING'].includes(this.props.status)) return false;
    this.props.status = 'PAST_DUE';
    this.touch(now);
    return true;
  }

  /** Its failing invoices are all paid: ACTIVE again (an UNPAID subscription takes up its billing again). */
  recovered(now: Date): boolean {
    if (this.props.status === 'PAST_DUE') {
      this.props.status = 'ACTIVE';
    } else if (this.props.status === 'UNPAID') {
      this.props.status = 'ACTIVE';
      this.props.nextPeriod = firstPeriodFrom(this.props.cycle, now, this.props.nextPeriod);
      this.props.nextPeriodAt = periodStart(this.props.cycle, this.props.nextPeriod);
      this.props.announcedPeriod = Math.max(this.props.announcedPeriod, this.props.nextPeriod - 1);
    } else return false;
    this.touch(now);
    return true;
  }

  /** Dunning ended without payment (contract §31: `dunning.finalStatus`). Answers whether the status changed. */
  endDunning(finalStatus: 'UNPAID' | 'CANCELED', now: Date): boolean {
    if (this.props.status === 'CANCELED' || this.props.status === 'UNPAID') return false;
    if (this.props.status === 'PAUSED' && finalStatus === 'UNPAID') return false;
    this.props.status = finalStatus;
    this.props.nextPeriodAt = null;
    if (finalStatus === 'CANCELED') {
      this.props.canceledAt = now;
      this.props.endedAt = now;
    }
    this.touch(now);
    return true;
  }

  private requireNot(statuses: readonly SubscriptionStatus[], action: string, actionEs: string): void {
    if (statuses.includes(this.props.status)) this.refuse(action, actionEs);
  }

  private refuse(action: string, actionEs: string): never {
    throw new DomainError('SUBSCRIPTION_INVALID_STATE', undefined, { status: this.props.status, action, actionEs });
  }

  private touch(now: Date): void {
    this.props.updatedAt = now;
  }
}
