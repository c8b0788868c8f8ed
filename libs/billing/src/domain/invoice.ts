import { BusinessId, Currency, MerchantId, PayerId, PaymentInstrumentId, uuidFrom } from '@pcs/kernel';
import type { DeclineKind } from '@pcs/gateways';
import type { DunningSettings } from '@pcs/merchants';

export const INVOICE_STATUSES = ['OPEN', 'PAID', 'UNCOLLECTIBLE', 'VOID'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

const DAY_MS = 86_400_000;

export interface InvoiceProps {
  readonly invoiceId: string;
  readonly subscriptionId: string;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  readonly payerId: PayerId;
  paymentInstrumentId: PaymentInstrumentId;
  readonly testClockId: string | null;
  readonly periodNumber: number;
  readonly periodStart: Date;
  readonly periodEnd: Date;
  readonly amount: number;
  readonly currency: Currency;
  readonly description: string;
  status: InvoiceStatus;
  /** Charges started (the one running included). */
  attemptCount: number;
  /** A charge started whose outcome is not applied yet: re-driven (the same payment intent) when `nextAttemptAt` comes. */
  charging: boolean;
  /** The next charge, or the next look at the running one; null: none planned (a hard decline waits for a new card). */
  nextAttemptAt: Date | null;
  /** When dunning ends without payment: the invoice's date plus the last retry day. */
  readonly finalAt: Date;
  /** The payment intent of the latest charge. */
  paymentIntentId: string | null;
  lastDecline: string | null;
  declineKind: DeclineKind | null;
  paidAt: Date | null;
  closedAt: Date | null;
  readonly createdAt: Date;
  updatedAt: Date;
}

/**
 * One period's bill (contract §31), charged off-session on its date and retried by dunning. The payment intent
 * of its k-th charge has an id derived from the invoice's id and k: whoever starts or re-drives that charge
 * (a retry, another process, the same one after a kill -9) reaches the same intent, so a charge is made once.
 */
export class Invoice {
  private constructor(private readonly props: InvoiceProps) {}

  static restore(props: InvoiceProps): Invoice {
    return new Invoice({ ...props });
  }

  static issue(
    input: Omit<
      InvoiceProps,
      | 'status'
      | 'attemptCount'
      | 'charging'
      | 'nextAttemptAt'
      | 'finalAt'
      | 'paymentIntentId'
      | 'lastDecline'
      | 'declineKind'
      | 'paidAt'
      | 'closedAt'
      | 'updatedAt'
    > & {
      /** When its first charge is made: the period's start, or earlier for a charge requested ahead (Pix Automático). */
      readonly chargeFrom?: Date;
    },
    dunning: DunningSettings,
  ): Invoice {
    const last = dunning.retryDays.length ? dunning.retryDays[dunning.retryDays.length - 1] : 0;
    const { chargeFrom, ...props } = input;
    return new Invoice({
      ...props,
      status: 'OPEN',
      attemptCount: 0,
      charging: false,
      nextAttemptAt: chargeFrom ?? input.periodStart,
      finalAt: new Date(input.periodStart.getTime() + last * DAY_MS),
      paymentIntentId: null,
      lastDecline: null,
      declineKind: null,
      paidAt: null,
      closedAt: null,
      updatedAt: input.createdAt,
    });
  }

  /** The id of the payment intent of charge `attempt` (1 first): the same for everyone who makes it. */
  static intentIdOf(invoiceId: string, attempt: number): string {
    return uuidFrom(`pcs invoice ${invoiceId} charge ${attempt}`);
  }

  get id(): string {
    return this.props.invoiceId;
  }

  snapshot(): Readonly<InvoiceProps> {
    return this.props;
  }

  /** When the scheduler next has something to do with it. */
  nextDueAt(): Date | null {
    if (this.props.status !== 'OPEN') return null;
    if (this.props.charging) return this.props.nextAttemptAt;
    const at = this.props.nextAttemptAt;
    return at && at < this.props.finalAt ? at : this.props.finalAt;
  }

  /**
   * Claims what is due at `now`: a new charge (its intent id fixed before it is made), the running one again
   * (its lease ran out: a crash, a pending outcome), or the end of dunning. Null when nothing is due.
   */
  claim(now: Date, leaseMs: number): { readonly kind: 'CHARGE'; readonly paymentIntentId: string } | { readonly kind: 'END' } | null {
    if (this.props.status !== 'OPEN') return null;
    const next = this.props.nextAttemptAt;
    if (this.props.charging) {
      if (!next || next > now) return null;
      this.props.nextAttemptAt = new Date(now.getTime() + leaseMs);
      this.props.updatedAt = now;
      return { kind: 'CHARGE', paymentIntentId: this.props.paymentIntentId! };
    }
    if (next && next <= now && next <= this.props.finalAt) {
      this.props.attemptCount += 1;
      this.props.charging = true;
      this.props.paymentIntentId = Invoice.intentIdOf(this.props.invoiceId, this.props.attemptCount);
      this.props.nextAttemptAt = new Date(now.getTime() + leaseMs);
      this.props.updatedAt = now;
      return { kind: 'CHARGE', paymentIntentId: this.props.paymentIntentId };
    }
    if (this.props.finalAt <= now) return { kind: 'END' };
    return null;
  }

  paid(now: Date): void {
    this.props.status = 'PAID';
    this.props.charging = false;
    this.props.nextAttemptAt = null;
    this.props.paidAt = now;
    this.props.closedAt = now;
    this.props.updatedAt = now;
  }

  /**
   * The charge was declined (or could not be made). A soft decline is tried again on the next retry day still
   * ahead; a hard one is not (the invoice waits for a new instrument until dunning ends). Answers whether
   * dunning is over (no retry left and nothing to wait for).
   */
  declined(error: string, kind: DeclineKind, dunning: DunningSettings, now: Date): boolean {
    this.props.charging = false;
    this.props.lastDecline = error;
    this.props.declineKind = kind;
    this.props.updatedAt = now;
    if (kind === 'HARD') {
      this.props.nextAttemptAt = null;
      return this.props.finalAt <= now;
    }
    const start = this.props.periodStart.getTime();
    const retry = dunning.retryDays.map((days) => new Date(start + days * DAY_MS)).find((at) => at > now);
    this.props.nextAttemptAt = retry && retry <= this.props.finalAt ? retry : null;
    return this.props.nextAttemptAt === null;
  }

  /**
   * The running charge never reached its processor (a crash before it was sent: the processor has no payment of it).
   * Nothing was declined: no decline is recorded, and it is charged again at once under the next charge's id.
   */
  notSent(now: Date): void {
    if (this.props.status !== 'OPEN' || !this.props.charging) return;
    this.props.charging = false;
    this.props.nextAttemptAt = now;
    this.props.updatedAt = now;
  }

  /** A new instrument for an invoice still open and not being charged: it is tried at once. */
  retryWith(paymentInstrumentId: PaymentInstrumentId, now: Date): boolean {
    if (this.props.status !== 'OPEN' || this.props.charging) return false;
    this.props.paymentInstrumentId = paymentInstrumentId;
    this.props.nextAttemptAt = now;
    this.props.updatedAt = now;
    return true;
  }

  /** Dunning is over without payment. */
  uncollectible(now: Date): void {
    this.close('UNCOLLECTIBLE', now);
  }

  /** The subscription ended: no more charges. */
  void(now: Date): boolean {
    if (this.props.status !== 'OPEN' || this.props.charging) return false;
    this.close('VOID', now);
    return true;
  }

  private close(status: 'UNCOLLECTIBLE' | 'VOID', now: Date): void {
    this.props.status = status;
    this.props.charging = false;
    this.props.nextAttemptAt = null;
    this.props.closedAt = now;
    this.props.updatedAt = now;
  }
}
