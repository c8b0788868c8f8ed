import { BusinessId, Currency, DomainError, Id, InvalidRequestError, MerchantId, Money, PaymentIntentId } from '@pcs/kernel';

export type LinkId = Id<'LinkId'>;
export const asLinkId = (value: string): LinkId => value as LinkId;

/** ACTIVE until used or expired; a deleted link is never shown (contract §12). */
export type LinkStatus = 'ACTIVE' | 'USED' | 'EXPIRED';

export const DEFAULT_LINK_DAYS = 7;
export const MAX_LINK_DAYS = 365;
const DAY_MS = 24 * 3600 * 1000;

export interface LinkProps {
  readonly linkId: LinkId;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  countryId: string;
  currency: Currency;
  /** Gross, VAT included; minor units. */
  amount: number;
  vatRateBp: number;
  description: string | null;
  reference: string | null;
  expirationDate: Date;
  used: boolean;
  usedAt: Date | null;
  paymentIntentId: PaymentIntentId | null;
  /** The country processors the payer may choose from. */
  countryProcessorIds: string[];
  readonly createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** What a link asks for: the amount in its currency, its VAT, where and how it may be paid. */
export interface LinkTerms {
  readonly amount: Money;
  readonly vatRateBp: number;
  readonly countryId: string;
  readonly countryProcessorIds: readonly string[];
}

export interface LinkChanges {
  readonly terms?: LinkTerms;
  readonly description?: string | null;
  readonly reference?: string | null;
  readonly expirationDate?: Date;
}

/**
 * A payment request a merchant sends to one payer, paid at most once. Its
 * status is derived, never stored: USED once used, EXPIRED once its
 * expiration date has passed — true wherever it is read, with no sweep.
 */
export class Link {
  private constructor(private readonly props: LinkProps) {}

  static create(
    ids: { linkId: LinkId; businessId: BusinessId; merchantId: MerchantId },
    terms: LinkTerms,
    details: { description?: string | null; reference?: string | null; expirationDate?: Date },
    now: Date,
  ): Link {
    return new Link({
      ...ids,
      ...Link.termsProps(terms),
      description: details.description ?? null,
      reference: details.reference ?? null,
      expirationDate: Link.checkedExpiration(details.expirationDate ?? new Date(now.getTime() + DEFAULT_LINK_DAYS * DAY_MS), now),
      used: false,
      usedAt: null,
      paymentIntentId: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
  }

  static restore(props: LinkProps): Link {
    return new Link({ ...props, countryProcessorIds: [...props.countryProcessorIds] });
  }

  get id(): LinkId {
    return this.props.linkId;
  }

  get isDeleted(): boolean {
    return this.props.deletedAt !== null;
  }

  get amount(): Money {
    return Money.ofMinor(this.props.amount, this.props.currency);
  }

  snapshot(): Readonly<LinkProps> {
    return { ...this.props, countryProcessorIds: [...this.props.countryProcessorIds] };
  }

  statusAt(now: Date): LinkStatus {
    if (this.props.used) return 'USED';
    return this.props.expirationDate <= now ? 'EXPIRED' : 'ACTIVE';
  }

  /** 409 LINK_ALREADY_USED or LINK_EXPIRED unless the link is ACTIVE. */
  assertActive(now: Date): void {
    const status = this.statusAt(now);
    if (status === 'USED') throw new DomainError('LINK_ALREADY_USED');
    if (status === 'EXPIRED') throw new DomainError('LINK_EXPIRED');
  }

  /** Operation 31: only an ACTIVE link changes, under the same rules as creation. */
  update(changes: LinkChanges, now: Date): void {
    this.assertActive(now);
    if (changes.terms) Object.assign(this.props, Link.termsProps(changes.terms));
    if (changes.description !== undefined) this.props.description = changes.description;
    if (changes.reference !== undefined) this.props.reference = changes.reference;
    if (changes.expirationDate !== undefined) this.props.expirationDate = Link.checkedExpiration(changes.expirationDate, now);
    this.props.updatedAt = now;
  }

  /** Paying from the link (operation 24): it becomes USED, naming the payment intent. */
  use(paymentIntentId: PaymentIntentId, now: Date): void {
    this.assertActive(now);
    this.props.used = true;
    this.props.usedAt = now;
    this.props.paymentIntentId = paymentIntentId;
    this.props.updatedAt = now;
  }

  /** Operation 35: a soft delete; a used link stays (400 ERROR_DELETING_LINK). */
  delete(now: Date): void {
    if (this.props.used) {
      throw new DomainError('ERROR_DELETING_LINK', 'a used link cannot be deleted', {
        reason: 'it has already been used',
        reasonEs: 'ya fue utilizado',
      });
    }
    this.props.deletedAt = now;
    this.props.updatedAt = now;
  }

  private static termsProps(terms: LinkTerms) {
    if (terms.countryProcessorIds.length === 0) {
      throw new InvalidRequestError(['merchantCountryProcessors'], 'merchantCountryProcessors must name at least one processor');
    }
    return {
      countryId: terms.countryId,
      currency: terms.amount.currency,
      amount: terms.amount.minor,
      vatRateBp: terms.vatRateBp,
      countryProcessorIds: [...new Set(terms.countryProcessorIds)],
    };
  }

  private static checkedExpiration(date: Date, now: Date): Date {
    if (Number.isNaN(date.getTime()) || date <= now)
      throw new InvalidRequestError(['expirationDate'], 'expirationDate must lie in the future');
    if (date.getTime() > now.getTime() + MAX_LINK_DAYS * DAY_MS) {
      throw new InvalidRequestError(['expirationDate'], `expirationDate must be at most ${MAX_LINK_DAYS} days ahead`);
    }
    return date;
  }
}
