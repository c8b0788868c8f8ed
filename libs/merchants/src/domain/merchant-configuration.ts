import { DomainError, MerchantId } from '@pcs/kernel';
import { InstallmentPolicy } from './installment-policy';
import { RoutingRule } from './routing-rules';
import { CardTestingGuardRequest, CardTestingGuardSettings, cardTestingGuardFrom, DEFAULT_CARD_TESTING_GUARD } from './card-testing-guard';
import { DEFAULT_DUNNING, DunningRequest, DunningSettings, dunningFrom } from './dunning';
import { DEFAULT_PAYOUT_SCHEDULE, PayoutSchedule } from './payout-schedule';

export interface CountryVat {
  readonly countryId: string;
  readonly vatRateBp: number;
}

export interface MerchantConfigurationProps {
  readonly merchantConfigurationId: string;
  readonly merchantId: MerchantId;
  paymentSuccessNotification: boolean;
  paymentErrorNotification: boolean;
  notificationEmails: string[];
  shortName: string | null;
  fastPaymentsEnabled: boolean;
  countryVats: CountryVat[];
  payoutSchedule: PayoutSchedule;
  /** Installments per country (contract §25); none: one installment everywhere. */
  installmentPolicy: InstallmentPolicy;
  /** Routing rules, first match wins (contract §26); none: each method to its one processor (§16, §20). */
  routing: readonly RoutingRule[];
  /** The public pages' card-testing guard (contract §30). */
  cardTestingGuard: CardTestingGuardSettings;
  /** Retries of subscriptions' declined invoices and their end (contract §31). */
  dunning: DunningSettings;
}

export interface ConfigurationChanges {
  shortName?: string;
  notificationEmails?: string[];
  paymentSuccessNotification?: boolean;
  paymentErrorNotification?: boolean;
  fastPaymentsEnabled?: boolean;
  /** Replaces the whole set when given. */
  countryVats?: CountryVat[];
  payoutSchedule?: PayoutSchedule;
  /** Replaces the whole policy when given. */
  installmentPolicy?: InstallmentPolicy;
  /** Replaces every rule when given. */
  routing?: readonly RoutingRule[];
  /** The fields sent; the others keep their value. */
  cardTestingGuard?: CardTestingGuardRequest;
  /** The fields sent; the others keep their value. */
  dunning?: DunningRequest;
}

/** Lowercase letters, digits and inner hyphens; 3–32 characters. Used in fast-payment lookups. */
const SHORT_NAME = /^[a-z0-9](?:[a-z0-9-]{1,30})[a-z0-9]$/;
export const MAX_NOTIFICATION_EMAILS = 10;

function invalid(reason: string, reasonEs: string): DomainError {
  return new DomainError('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION', reason, { reason, reasonEs });
}

/**
 * A merchant's notification, fast-payment and per-country VAT settings.
 * Every merchant has exactly one, created with it.
 */
export class MerchantConfiguration {
  private constructor(private readonly props: MerchantConfigurationProps) {}

  static createDefault(merchantConfigurationId: string, merchantId: MerchantId): MerchantConfiguration {
    return new MerchantConfiguration({
      merchantConfigurationId,
      merchantId,
      paymentSuccessNotification: false,
      paymentErrorNotification: false,
      notificationEmails: [],
      shortName: null,
      fastPaymentsEnabled: false,
      countryVats: [],
      payoutSchedule: DEFAULT_PAYOUT_SCHEDULE,
      installmentPolicy: {},
      routing: [],
      cardTestingGuard: DEFAULT_CARD_TESTING_GUARD,
      dunning: DEFAULT_DUNNING,
    });
  }

  static restore(props: MerchantConfigurationProps): MerchantConfiguration {
    return new MerchantConfiguration({ ...props, notificationEmails: [...props.notificationEmails], countryVats: [...props.countryVats] });
  }

  snapshot(): Readonly<MerchantConfigurationProps> {
    return { ...this.props };
  }

  /** Applies the fields that were sent; fields not sent keep their value. */
  apply(changes: ConfigurationChanges): void {
    const next = { ...this.props };
    if (changes.shortName !== undefined) {
      const shortName = changes.shortName.trim().toLowerCase();
      if (!SHORT_NAME.test(shortName)) {
        throw invalid(
          'shortName must have 3 to 32 lowercase letters, digits or inner hyphens',
          'shortName debe tener entre 3 y 32 letras minúsculas, dígitos o guiones internos',
        );
      }
      next.shortName = shortName;
    }
    if (changes.notificationEmails !== undefined) {
      const emails = [...new Set(changes.notificationEmails.map((e) => e.trim().toLowerCase()))];
      if (emails.length > MAX_NOTIFICATION_EMAILS) {
        throw invalid(
          `notificationEmails holds at most ${MAX_NOTIFICATION_EMAILS} addresses`,
          `notificationEmails admite como máximo ${MAX_NOTIFICATION_EMAILS} direcciones`,
        );
      }
      next.notificationEmails = emails;
    }
    if (changes.paymentSuccessNotification !== undefined) next.paymentSuccessNotification = changes.paymentSuccessNotification;
    if (changes.paymentErrorNotification !== undefined) next.paymentErrorNotification = changes.paymentErrorNotification;
    if (changes.fastPaymentsEnabled !== undefined) next.fastPaymentsEnabled = changes.fastPaymentsEnabled;
    if (changes.payoutSchedule !== undefined) next.payoutSchedule = changes.payoutSchedule;
    if (changes.installmentPolicy !== undefined) next.installmentPolicy = changes.installmentPolicy;
    if (changes.routing !== undefined) next.routing = changes.routing;
    if (changes.cardTestingGuard !== undefined)
      next.cardTestingGuard = cardTestingGuardFrom(changes.cardTestingGuard, next.cardTestingGuard);
    if (changes.dunning !== undefined) next.dunning = dunningFrom(changes.dunning, next.dunning);
    if (changes.countryVats !== undefined) {
      const countries = changes.countryVats.map((c) => c.countryId);
      if (new Set(countries).size !== countries.length) {
        throw invalid(
          'each country may appear only once in merchantCountryConfigurations',
          'cada país puede aparecer una sola vez en merchantCountryConfigurations',
        );
      }
      next.countryVats = [...changes.countryVats];
    }
    if (next.fastPaymentsEnabled && !next.shortName) {
      throw invalid('fast payments need a shortName', 'los pagos rápidos requieren un shortName');
    }
    if ((next.paymentSuccessNotification || next.paymentErrorNotification) && next.notificationEmails.length === 0) {
      throw invalid(
        'notifications need at least one address in notificationEmails',
        'las notificaciones requieren al menos una dirección en notificationEmails',
      );
    }
    Object.assign(this.props, next);
  }

  /** The VAT rate configured for a country, if any. */
  vatRateFor(countryId: string): number | null {
    return this.props.countryVats.find((c) => c.countryId === countryId)?.vatRateBp ?? null;
  }
}
