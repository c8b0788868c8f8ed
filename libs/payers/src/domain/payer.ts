import { BusinessId, DocumentType, DomainError, MerchantId, PayerId } from '@pcs/kernel';

export interface PayerAddress {
  readonly country?: string;
  readonly state?: string;
  readonly city?: string;
  readonly street?: string;
  readonly doorNumber?: string;
  readonly apartmentNumber?: string;
  readonly zipCode?: string;
}

export interface PayerProps {
  readonly payerId: PayerId;
  readonly businessId: BusinessId;
  readonly merchantId: MerchantId;
  externalId: string | null;
  firstName: string | null;
  lastName: string | null;
  documentType: DocumentType | null;
  documentNumber: string | null;
  countryId: string | null;
  email: string | null;
  phone: string | null;
  address: PayerAddress | null;
  deviceFingerprint: string | null;
  readonly createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** Already validated and normalised details (see PayerService). */
export interface PayerDetails {
  firstName?: string;
  lastName?: string;
  documentType?: DocumentType;
  documentNumber?: string;
  countryId?: string;
  email?: string;
  phone?: string;
  address?: PayerAddress;
  deviceFingerprint?: string;
}

export interface PayerChanges {
  externalId?: string;
  email?: string;
  phone?: string;
  address?: PayerAddress;
}

/** The person who pays. Belongs to one merchant of one business; deletion is soft. */
export class Payer {
  private constructor(private readonly props: PayerProps) {}

  static create(ids: { payerId: PayerId; businessId: BusinessId; merchantId: MerchantId }, details: PayerDetails, now: Date): Payer {
    return new Payer({
      ...ids,
      externalId: null,
      firstName: details.firstName ?? null,
      lastName: details.lastName ?? null,
      documentType: details.documentType ?? null,
      documentNumber: details.documentNumber ?? null,
      countryId: details.countryId ?? null,
      email: details.email ?? null,
      phone: details.phone ?? null,
      address: details.address ?? null,
      deviceFingerprint: details.deviceFingerprint ?? null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
  }

  static restore(props: PayerProps): Payer {
    return new Payer({ ...props });
  }

  get id(): PayerId {
    return this.props.payerId;
  }

  snapshot(): Readonly<PayerProps> {
    return { ...this.props };
  }

  update(changes: PayerChanges, now: Date): void {
    this.assertLive();
    if (changes.externalId !== undefined) this.props.externalId = changes.externalId;
    if (changes.email !== undefined) this.props.email = changes.email;
    if (changes.phone !== undefined) this.props.phone = changes.phone;
    if (changes.address !== undefined) this.props.address = { ...changes.address };
    this.props.updatedAt = now;
  }

  /**
   * Fills what the payer does not have yet from details sent along another
   * request (payerData). Never overwrites: a payer's identity is not changed
   * in passing. A different document than the one on file is refused.
   */
  complete(details: PayerDetails, now: Date): void {
    this.assertLive();
    const p = this.props;
    if (
      details.documentNumber !== undefined &&
      p.documentNumber !== null &&
      (details.documentNumber !== p.documentNumber || details.documentType !== p.documentType)
    ) {
      throw new DomainError('PAYER_DOCUMENT_MISMATCH');
    }
    const fill = <K extends keyof PayerDetails & keyof PayerProps>(key: K) => {
      if (p[key] === null && details[key] !== undefined) (p as unknown as Record<string, unknown>)[key] = details[key];
    };
    (
      ['firstName', 'lastName', 'documentType', 'documentNumber', 'countryId', 'email', 'phone', 'address', 'deviceFingerprint'] as const
    ).forEach(fill);
    p.updatedAt = now;
  }

  delete(now: Date): void {
    this.assertLive();
    this.props.deletedAt = now;
    this.props.updatedAt = now;
  }

  private assertLive(): void {
    if (this.props.deletedAt !== null) throw new DomainError('PAYER_NOT_FOUND');
  }
}
