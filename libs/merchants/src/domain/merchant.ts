import { BusinessId, Currency, DomainError, MerchantId, TransfersType } from '@pcs/kernel';

export type MerchantStatus = 'ONBOARDING' | 'ACTIVE' | 'SUSPENDED';

/** The only merchant type the specification shows. */
export const DEFAULT_MERCHANT_TYPE = 'SOLE_PROPRIETORSHIP_CORPORATION';

export interface Address {
  readonly country?: string;
  readonly state?: string;
  readonly city?: string;
  readonly street?: string;
  readonly doorNumber?: string;
  readonly apartmentNumber?: string;
  readonly zipCode?: string;
}

export interface SettlementAccount {
  readonly serviceAccount: string | null;
  readonly settlementBank: {
    readonly settlementBankId: string | null;
    readonly bankId: string | null;
    readonly accountNumber: string | null;
    readonly currency: Currency | null;
  } | null;
}

/** Declared volumes, integer minor units (cents). */
export interface DeclaredVolumes {
  readonly monthlyLoad: number | null;
  readonly monthlyLoadUsd: number | null;
  readonly monthlyTpvUsd: number | null;
  readonly averageTransactionUsd: number | null;
  readonly averageAnnualBilling: number | null;
}

export interface MerchantProps {
  readonly merchantId: MerchantId;
  readonly businessId: BusinessId;
  readonly countryId: string;
  type: string;
  merchantName: string;
  fantasyName: string | null;
  phone: string | null;
  email: string | null;
  taxIdNumber: string | null;
  webSite: string | null;
  dateOfFoundation: Date | null;
  volumes: DeclaredVolumes;
  status: MerchantStatus;
  approvedAt: Date | null;
  metadata: string | null;
  currencies: Currency[];
  transfersType: TransfersType | null;
  address: Address | null;
  account: SettlementAccount;
  readonly createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** Fields of the merchant update request that the merchant itself holds. */
export interface MerchantChanges {
  merchantName?: string;
  email?: string;
  phone?: string;
  transfersType?: TransfersType;
  address?: Address;
  metadata?: string;
  currencies?: Currency[];
  account?: SettlementAccount;
}

/**
 * A merchant of a business. Status moves ONBOARDING → ACTIVE → SUSPENDED
 * (and back to ACTIVE when re-approved); only an ACTIVE merchant collects.
 * Deletion is soft: the merchant leaves the API, its financial records stay.
 */
export class Merchant {
  private constructor(private readonly props: MerchantProps) {}

  static create(input: {
    merchantId: MerchantId;
    businessId: BusinessId;
    countryId: string;
    merchantName: string;
    currencies: Currency[];
    now: Date;
  }): Merchant {
    const name = input.merchantName.trim();
    if (name.length === 0 || name.length > 128) {
      throw new DomainError('ERROR_IN_UPDATE_MERCHANT', 'merchantName must have 1 to 128 characters', {
        reason: 'merchantName must have 1 to 128 characters',
        reasonEs: 'merchantName debe tener entre 1 y 128 caracteres',
      });
    }
    return new Merchant({
      merchantId: input.merchantId,
      businessId: input.businessId,
      countryId: input.countryId,
      type: DEFAULT_MERCHANT_TYPE,
      merchantName: name,
      fantasyName: name,
      phone: null,
      email: null,
      taxIdNumber: null,
      webSite: null,
      dateOfFoundation: null,
      volumes: { monthlyLoad: null, monthlyLoadUsd: null, monthlyTpvUsd: null, averageTransactionUsd: null, averageAnnualBilling: null },
      status: 'ONBOARDING',
      approvedAt: null,
      metadata: null,
      currencies: [...input.currencies],
      transfersType: null,
      address: null,
      account: { serviceAccount: null, settlementBank: null },
      createdAt: input.now,
      updatedAt: input.now,
      deletedAt: null,
    });
  }

  static restore(props: MerchantProps): Merchant {
    return new Merchant({ ...props });
  }

  get id(): MerchantId {
    return this.props.merchantId;
  }

  get status(): MerchantStatus {
    return this.props.status;
  }

  get isDeleted(): boolean {
    return this.props.deletedAt !== null;
  }

  snapshot(): Readonly<MerchantProps> {
    return { ...this.props };
  }

  /** ONBOARDING or SUSPENDED → ACTIVE. Approving an ACTIVE merchant changes nothing. */
  approve(now: Date): void {
    this.assertNotDeleted();
    if (this.props.status === 'ACTIVE') return;
    if (this.props.status === 'ONBOARDING') this.props.approvedAt = now;
    this.props.status = 'ACTIVE';
    this.props.updatedAt = now;
  }

  suspend(now: Date): void {
    this.assertNotDeleted();
    if (this.props.status !== 'ACTIVE') {
      throw new DomainError('MERCHANT_INVALID_STATE', `only an ACTIVE merchant can be suspended; this one is ${this.props.status}`, {
        status: this.props.status,
      });
    }
    this.props.status = 'SUSPENDED';
    this.props.updatedAt = now;
  }

  /** Payment intents and links may only be created by an ACTIVE merchant. */
  assertCanCollect(): void {
    if (this.props.status !== 'ACTIVE' || this.isDeleted) throw new DomainError('MERCHANT_NOT_ACTIVE');
  }

  update(changes: MerchantChanges, now: Date): void {
    this.assertNotDeleted();
    const p = this.props;
    if (changes.merchantName !== undefined) p.merchantName = changes.merchantName.trim();
    if (changes.email !== undefined) p.email = changes.email.trim().toLowerCase();
    if (changes.phone !== undefined) p.phone = changes.phone;
    if (changes.transfersType !== undefined) p.transfersType = changes.transfersType;
    if (changes.address !== undefined) p.address = { ...changes.address };
    if (changes.metadata !== undefined) p.metadata = changes.metadata;
    if (changes.currencies !== undefined) p.currencies = [...new Set(changes.currencies)];
    if (changes.account !== undefined) p.account = changes.account;
    p.updatedAt = now;
  }

  delete(now: Date): void {
    this.assertNotDeleted();
    this.props.deletedAt = now;
    this.props.updatedAt = now;
  }

  private assertNotDeleted(): void {
    if (this.isDeleted) throw new DomainError('MERCHANT_NOT_FOUND');
  }
}
