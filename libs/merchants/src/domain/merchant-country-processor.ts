import { DomainError, MerchantId } from '@pcs/kernel';

export type OnboardingStatus = 'ONBOARDING' | 'ACTIVE' | 'REJECTED';

export interface MerchantCountryProcessorProps {
  readonly merchantCountryProcessorId: string;
  readonly merchantId: MerchantId;
  countryProcessorId: string;
  onboardingStatus: OnboardingStatus;
  active: boolean;
  readonly createdAt: Date;
  updatedAt: Date;
}

/**
 * The relationship between a merchant and a country processor. Onboarding at
 * the processor moves ONBOARDING → ACTIVE or REJECTED; the merchant switches
 * it on and off with `active`. Payers are only offered relationships that are
 * ACTIVE and active.
 */
export class MerchantCountryProcessor {
  private constructor(private readonly props: MerchantCountryProcessorProps) {}

  static relate(input: {
    merchantCountryProcessorId: string;
    merchantId: MerchantId;
    countryProcessorId: string;
    now: Date;
  }): MerchantCountryProcessor {
    return new MerchantCountryProcessor({
      ...input,
      onboardingStatus: 'ONBOARDING',
      active: true,
      createdAt: input.now,
      updatedAt: input.now,
    });
  }

  static restore(props: MerchantCountryProcessorProps): MerchantCountryProcessor {
    return new MerchantCountryProcessor({ ...props });
  }

  snapshot(): Readonly<MerchantCountryProcessorProps> {
    return { ...this.props };
  }

  get isOffered(): boolean {
    return this.props.onboardingStatus === 'ACTIVE' && this.props.active;
  }

  /** Onboarding succeeded. A REJECTED relationship is final. */
  completeOnboarding(now: Date): void {
    if (this.props.onboardingStatus === 'ACTIVE') return;
    if (this.props.onboardingStatus === 'REJECTED') {
      throw new DomainError('MERCHANT_INVALID_STATE', 'a rejected country processor relationship cannot be activated', {
        status: 'REJECTED',
      });
    }
    this.props.onboardingStatus = 'ACTIVE';
    this.props.updatedAt = now;
  }

  rejectOnboarding(now: Date): void {
    if (this.props.onboardingStatus !== 'ONBOARDING') {
      throw new DomainError(
        'MERCHANT_INVALID_STATE',
        `only a relationship in ONBOARDING can be rejected; this one is ${this.props.onboardingStatus}`,
        {
          status: this.props.onboardingStatus,
        },
      );
    }
    this.props.onboardingStatus = 'REJECTED';
    this.props.updatedAt = now;
  }

  setActive(active: boolean, now: Date): void {
    this.props.active = active;
    this.props.updatedAt = now;
  }

  /**
   * Moves the relationship to another processor. Onboarding at one processor
   * says nothing about another, so onboarding starts over.
   */
  switchProcessor(countryProcessorId: string, now: Date): void {
    if (countryProcessorId === this.props.countryProcessorId) return;
    this.props.countryProcessorId = countryProcessorId;
    this.props.onboardingStatus = 'ONBOARDING';
    this.props.updatedAt = now;
  }
}
