import { BusinessId, Currency, DomainError, MerchantId } from '@pcs/kernel';
import type { LocalDate } from './business-calendar';
import type { AccountType } from './settlement-account';

export const PAYOUT_STATUSES = ['PENDING', 'IN_TRANSIT', 'PAID', 'FAILED', 'CANCELED', 'RETURNED'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];
export type PayoutOrigin = 'REQUESTED' | 'SCHEDULED';
export type PayoutEventType =
  'payout.created' | 'payout.in_transit' | 'payout.paid' | 'payout.failed' | 'payout.canceled' | 'payout.returned';

/** Where the payout goes: the settlement account as it was when the payout was made. */
export interface PayoutDestination {
  readonly settlementAccountId: string;
  readonly bankId: string;
  readonly accountNumber: string;
  readonly accountType: AccountType;
  readonly holderDocument: string | null;
}

export interface PayoutProps {
  readonly payoutId: string;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  readonly currency: Currency;
  /** Minor units, positive. */
  readonly amount: number;
  status: PayoutStatus;
  /** The rail it leaves by (sandbox, bank-file). */
  readonly rail: string;
  readonly origin: PayoutOrigin;
  readonly destination: PayoutDestination;
  /** How many balance transactions it swept (a payout of the whole available balance; 0 for one of an amount). */
  transactionCount: number;
  arrivalDate: LocalDate | null;
  bankReference: string | null;
  failureReason: string | null;
  /** The bank-file rail: when it was written to its bank's batch file (it has then left). */
  exportedAt: Date | null;
  /** The bank-file rail: the batch it was exported in (once, contract §24). */
  batchId: string | null;
  /** When the bank returned it after paying it (RETURNED). */
  returnedAt: Date | null;
  readonly scheduledFor: LocalDate | null;
  readonly createdAt: Date;
  updatedAt: Date;
  paidAt: Date | null;
}

/** States news cannot change, but for a bank's return of a PAID payout (contract §24). */
const FINAL: readonly PayoutStatus[] = ['PAID', 'FAILED', 'CANCELED', 'RETURNED'];

/**
 * A payout of a merchant's available money to its settlement account
 * (contracts §19, §24): PENDING → IN_TRANSIT → PAID, or FAILED (its amount
 * comes back to available), or CANCELED before it left; a PAID one the bank
 * returns becomes RETURNED (its amount back too). Final states absorb:
 * news of a final payout changes nothing and says so (false), which makes a
 * repeated bank answer or job harmless. Each transition queues its event.
 */
export class Payout {
  private readonly events: PayoutEventType[] = [];

  private constructor(private readonly props: PayoutProps) {}

  static create(
    input: Omit<
      PayoutProps,
      'status' | 'arrivalDate' | 'bankReference' | 'failureReason' | 'exportedAt' | 'batchId' | 'returnedAt' | 'updatedAt' | 'paidAt'
    >,
  ): Payout {
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw new Error('a payout moves a positive amount');
    const payout = new Payout({
      ...input,
      status: 'PENDING',
      arrivalDate: null,
      bankReference: null,
      failureReason: null,
      exportedAt: null,
      batchId: null,
      returnedAt: null,
      updatedAt: input.createdAt,
      paidAt: null,
    });
    payout.events.push('payout.created');
    return payout;
  }

  static restore(props: PayoutProps): Payout {
    return new Payout({ ...props });
  }

  get id(): string {
    return this.props.payoutId;
  }

  get status(): PayoutStatus {
    return this.props.status;
  }

  get isFinal(): boolean {
    return FINAL.includes(this.props.status);
  }

  /** Whether it has left for the bank: in transit on a rail that sends at once, or written to a bank file. */
  get hasLeft(): boolean {
    if (this.props.status === 'PENDING') return false;
    if (this.props.status === 'IN_TRANSIT') return this.props.rail !== 'BANK_FILE' || this.props.exportedAt !== null;
    return true;
  }

  snapshot(): Readonly<PayoutProps> {
    return { ...this.props };
  }

  /** The events of the transitions since it was made or read, each handed out once. */
  pullEvents(): PayoutEventType[] {
    return this.events.splice(0);
  }

  /** Handed to its rail: on its way (the sandbox's arrival date is known now; a bank file's when it is paid). */
  markInTransit(now: Date, arrivalDate: LocalDate | null): boolean {
    if (this.props.status !== 'PENDING') return false;
    this.props.status = 'IN_TRANSIT';
    this.props.arrivalDate = arrivalDate;
    this.touch(now, 'payout.in_transit');
    return true;
  }

  /** Written to its bank's batch file (the batch recorded in the same transaction): it has left, and belongs to that batch for good. */
  markExported(now: Date, batchId: string): boolean {
    if (this.props.status !== 'IN_TRANSIT' || this.props.exportedAt || this.props.batchId) return false;
    this.props.exportedAt = now;
    this.props.batchId = batchId;
    this.props.updatedAt = now;
    return true;
  }

  /** The bank credited it. */
  markPaid(now: Date, arrivalDate: LocalDate, bankReference: string | null): boolean {
    if (this.props.status !== 'IN_TRANSIT') return false;
    this.props.status = 'PAID';
    this.props.paidAt = now;
    this.props.arrivalDate = arrivalDate;
    this.props.bankReference = bankReference ?? this.props.bankReference;
    this.touch(now, 'payout.paid');
    return true;
  }

  /** The bank refused it before paying it: the caller puts its amount back in available (PAYOUT_FAILURE). */
  fail(now: Date, reason: string): boolean {
    if (this.isFinal) return false;
    this.props.status = 'FAILED';
    this.props.failureReason = reason.slice(0, 512);
    this.touch(now, 'payout.failed');
    return true;
  }

  /** The bank returned a payout it had paid (a closed account, a refused credit): the caller puts its amount back in available. */
  markReturned(now: Date, reason: string): boolean {
    if (this.props.status !== 'PAID') return false;
    this.props.status = 'RETURNED';
    this.props.returnedAt = now;
    this.props.failureReason = reason.slice(0, 512);
    this.touch(now, 'payout.returned');
    return true;
  }

  /** Canceled before it left; the caller puts its amount back in available. A payout that left cannot be. */
  cancel(now: Date): void {
    if (this.hasLeft || this.isFinal) throw new DomainError('PAYOUT_INVALID_STATE', undefined, { status: this.props.status });
    this.props.status = 'CANCELED';
    this.props.failureReason = 'canceled';
    this.touch(now, 'payout.canceled');
  }

  private touch(now: Date, event: PayoutEventType): void {
    this.props.updatedAt = now;
    this.events.push(event);
  }
}
