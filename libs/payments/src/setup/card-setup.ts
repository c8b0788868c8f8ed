import { BusinessId, MerchantId, PayerId } from '@pcs/kernel';
import type { PixMandateTerms } from '@pcs/payment-instruments';

/** How long a setup's page stays open (contract §31: `expiresAt`). */
export const SETUP_TTL_MS = 24 * 3_600_000;

export interface CardSetupProps {
  readonly setupId: string;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  readonly payerId: PayerId;
  /** The processor the card is saved at, when the merchant named one; null: the payer chooses among the card methods. */
  readonly countryProcessorId: string | null;
  readonly returnUrl: string;
  /** Dunning's setup (contract §31): the subscription whose open invoices the new card pays. */
  readonly subscriptionId: string | null;
  /** A Pix Automático authorisation's setup (contract §31): the terms the payer is asked to authorise; null: a card's. */
  readonly pixMandate: PixMandateTerms | null;
  /** The processor's authorisation asked for (its id there), and its journey's address while pending (null once refused). */
  pixReference: string | null;
  pixAuthoriseUrl: string | null;
  status: 'OPEN' | 'COMPLETED';
  paymentInstrumentId: string | null;
  readonly expiresAt: Date;
  readonly createdAt: Date;
  completedAt: Date | null;
}

/** A page a payer opens once to save a card without paying (contract §31), as Stripe's SetupIntent. */
export class CardSetup {
  private constructor(private readonly props: CardSetupProps) {}

  static open(
    input: Omit<CardSetupProps, 'status' | 'paymentInstrumentId' | 'expiresAt' | 'completedAt' | 'pixReference' | 'pixAuthoriseUrl'>,
  ): CardSetup {
    return new CardSetup({
      ...input,
      pixReference: null,
      pixAuthoriseUrl: null,
      status: 'OPEN',
      paymentInstrumentId: null,
      expiresAt: new Date(input.createdAt.getTime() + SETUP_TTL_MS),
      completedAt: null,
    });
  }

  static restore(props: CardSetupProps): CardSetup {
    return new CardSetup({ ...props });
  }

  get id(): string {
    return this.props.setupId;
  }

  snapshot(): Readonly<CardSetupProps> {
    return this.props;
  }

  /** Where it stands at `now`: a setup not completed by its expiry is EXPIRED. */
  stateAt(now: Date): 'OPEN' | 'COMPLETED' | 'EXPIRED' {
    if (this.props.status === 'COMPLETED') return 'COMPLETED';
    return this.props.expiresAt <= now ? 'EXPIRED' : 'OPEN';
  }

  /** The processor opened the authorisation: its reference and where the payer authorises it. */
  pixRequested(reference: string, authoriseUrl: string | null): void {
    this.props.pixReference = reference;
    this.props.pixAuthoriseUrl = authoriseUrl;
  }

  /**
   * The payer refused the authorisation (or it was cancelled): no journey to send the payer to; the page says so (the
   * reference stays, read again) and may ask for another.
   */
  pixRefused(): void {
    this.props.pixAuthoriseUrl = null;
  }

  complete(paymentInstrumentId: string, now: Date): void {
    if (this.stateAt(now) !== 'OPEN') throw new Error(`setup ${this.props.setupId} is not open`);
    this.props.status = 'COMPLETED';
    this.props.paymentInstrumentId = paymentInstrumentId;
    this.props.completedAt = now;
  }
}
