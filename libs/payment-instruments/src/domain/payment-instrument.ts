import { BusinessId, DomainError, MerchantId, PayerId, PaymentInstrumentId } from '@pcs/kernel';

export type PaymentInstrumentStatus = 'ACTIVE' | 'INACTIVE';

/**
 * A Pix Automático authorisation's terms (contract §31), as the payer authorised them in the bank's app: every charge
 * is exactly `amount` (minor units of BRL), once per period of `frequency`, from `startDate` (YYYY-MM-DD) on.
 */
export interface PixMandateTerms {
  readonly amount: number;
  readonly frequency: 'WEEKLY' | 'MONTHLY' | 'QUARTERLY' | 'SEMIANNUAL' | 'ANNUAL';
  readonly startDate: string;
  readonly description: string;
}

/** The instrument needs an approved payment before it may be charged off-session. */
export const NEXT_ACTION_FIRST_PAYMENT = 'REQUIRES_FIRST_PAYMENT';

export interface PaymentInstrumentProps {
  readonly paymentInstrumentId: PaymentInstrumentId;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  readonly payerId: PayerId;
  readonly paymentMethodId: string;
  readonly paymentInstrumentTypeId: string | null;
  readonly countryId: string;
  countries: string[];
  status: PaymentInstrumentStatus;
  active: boolean;
  validated: boolean;
  externalId: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  /** A card saved by a setup (contract §31): its BIN and expiry, besides the brand and last four; never the number or the code. */
  cardBin: string | null;
  cardExpMonth: number | null;
  cardExpYear: number | null;
  /** The processor that stores the saved card (its gateway's name): the card is charged there only (contract §31). */
  processor: string | null;
  /** A Pix Automático authorisation (contract §31): the terms the payer authorised; null for any other instrument. */
  pixMandate: PixMandateTerms | null;
  metadata: Record<string, unknown> | null;
  readonly createdAt: Date;
  updatedAt: Date;
}

/**
 * A payer's way to pay: a payment method in a country, for one merchant.
 * Created ACTIVE and not validated; the first approved payment validates it.
 * Holds only what a gateway hands back (a token, brand and last four digits),
 * never a card number.
 */
export class PaymentInstrument {
  private constructor(private readonly props: PaymentInstrumentProps) {}

  static create(
    input: Omit<
      PaymentInstrumentProps,
      | 'status'
      | 'active'
      | 'validated'
      | 'externalId'
      | 'cardBrand'
      | 'cardLast4'
      | 'cardBin'
      | 'cardExpMonth'
      | 'cardExpYear'
      | 'processor'
      | 'pixMandate'
      | 'updatedAt'
    >,
  ): PaymentInstrument {
    return new PaymentInstrument({
      ...input,
      status: 'ACTIVE',
      active: true,
      validated: false,
      externalId: null,
      cardBrand: null,
      cardLast4: null,
      cardBin: null,
      cardExpMonth: null,
      cardExpYear: null,
      processor: null,
      pixMandate: null,
      updatedAt: input.createdAt,
    });
  }

  static restore(props: PaymentInstrumentProps): PaymentInstrument {
    return new PaymentInstrument({ ...props });
  }

  get id(): PaymentInstrumentId {
    return this.props.paymentInstrumentId;
  }

  snapshot(): Readonly<PaymentInstrumentProps> {
    return { ...this.props };
  }

  /** What must happen next before the instrument can be charged without the payer: null when nothing. */
  get nextAction(): string | null {
    return this.props.active && !this.props.validated ? NEXT_ACTION_FIRST_PAYMENT : null;
  }

  /** The first approved payment proves the instrument works. */
  /** The first approved payment validates the instrument; false when it already was (nothing changed). */
  markValidated(now: Date): boolean {
    if (this.props.validated) return false;
    this.props.validated = true;
    this.props.updatedAt = now;
    return true;
  }

  /**
   * Records the gateway's token and masked card data; a full card number is
   * refused. False when the instrument already held exactly these (nothing changed).
   */
  recordGatewayData(data: { externalId: string; cardBrand?: string; cardLast4?: string }, now: Date): boolean {
    if (data.cardLast4 !== undefined && !/^\d{4}$/.test(data.cardLast4))
      throw new DomainError('CARD_DATA_NOT_ACCEPTED', 'only the last four digits of a card are kept', { fields: 'cardLast4' });
    const next = {
      externalId: data.externalId,
      cardBrand: data.cardBrand ?? this.props.cardBrand,
      cardLast4: data.cardLast4 ?? this.props.cardLast4,
    };
    if (next.externalId === this.props.externalId && next.cardBrand === this.props.cardBrand && next.cardLast4 === this.props.cardLast4)
      return false;
    Object.assign(this.props, next, { updatedAt: now });
    return true;
  }

  /** When the card stops being usable: the end of its expiry month (UTC), or null when the instrument holds no expiry. */
  get cardExpiresAt(): Date | null {
    const { cardExpMonth: month, cardExpYear: year } = this.props;
    return month && year ? new Date(Date.UTC(year, month, 1)) : null;
  }

  /**
   * A card saved by a setup page: its token at the processor, brand, BIN (none where the processor does not tell it),
   * last four and expiry (the parts a processor's fields answer; a whole number is refused), and validated: the
   * processor accepted it for later charges.
   */
  recordSavedCard(
    card: { processor: string; externalId: string; brand: string; bin: string | null; last4: string; expMonth: number; expYear: number },
    now: Date,
  ): void {
    if (!/^\d{4}$/.test(card.last4) || (card.bin !== null && !/^(\d{6}|\d{8})$/.test(card.bin)))
      throw new DomainError('CARD_DATA_NOT_ACCEPTED', 'only the BIN and the last four digits of a card are kept', { fields: 'card' });
    Object.assign(this.props, {
      processor: card.processor,
      externalId: card.externalId,
      cardBrand: card.brand,
      cardBin: card.bin,
      cardLast4: card.last4,
      cardExpMonth: card.expMonth,
      cardExpYear: card.expYear,
      validated: true,
      updatedAt: now,
    });
  }

  /**
   * A Pix Automático authorisation the payer gave in the bank's app (contract §31): the processor's reference of it,
   * the terms it binds every charge to, and validated (the processor holds it active for charges).
   */
  recordPixAuthorisation(authorisation: { processor: string; externalId: string; mandate: PixMandateTerms }, now: Date): void {
    Object.assign(this.props, {
      processor: authorisation.processor,
      externalId: authorisation.externalId,
      pixMandate: { ...authorisation.mandate },
      validated: true,
      updatedAt: now,
    });
  }

  deactivate(now: Date): void {
    this.props.status = 'INACTIVE';
    this.props.active = false;
    this.props.updatedAt = now;
  }
}
