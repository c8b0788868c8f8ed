import { Injectable } from '@nestjs/common';
import { CountryProcessor } from '@pcs/catalog';
import {
  choosesInstallmentsOnItsPage,
  collectionMethodOf,
  GatewayRouting,
  InstallmentOffer,
  PaymentGateway,
  ProcessorInstallmentPlan,
  quotesInstallments,
} from '@pcs/gateways';
import { Caller, DomainError, MerchantId, Money, PaymentInstrumentId, Transaction } from '@pcs/kernel';
import { CountryInstallmentPolicy, MerchantConfigurationService, MerchantCountryProcessorService, MerchantService } from '@pcs/merchants';
import { PaymentInstrumentService } from '@pcs/payment-instruments';

/** What a quote asks (contract §25): the processor by its id (payins API) or its method (B2B API), the card by its BIN or a saved instrument. */
export interface InstallmentQuoteCommand {
  readonly merchantId?: MerchantId;
  readonly countryProcessorId?: string;
  readonly paymentMethod?: string;
  readonly paymentInstrumentId?: PaymentInstrumentId;
  /** The card's first 6 or 8 digits (checked at the edge). */
  readonly bin?: string;
  readonly amount: Money;
}

/** One plan, as every processor's is shown (contract §25). */
export interface InstallmentPlan {
  readonly installments: number;
  readonly installmentAmount: Money;
  /** What the payer pays in all. */
  readonly totalAmount: Money;
  /** The payer pays nothing beyond the amount. */
  readonly interestFree: boolean;
  /** The payer's interest over the plan, basis points of the amount (1250: 12.5 % more). */
  readonly payerRateBp: number;
  /** The financing fee the merchant pays for an interest-free plan where the processor quotes it; null otherwise. */
  readonly merchantFinancingFee: Money | null;
  /** The processor's own id of the plan, where paying with it needs it. */
  readonly planId: string | null;
}

/** What a payer's page says of installments before the payer leaves (contract §25): up to how many, how many interest-free. */
export interface InstallmentOfferShown {
  readonly maxInstallments: number;
  readonly interestFreeUpTo: number;
}

/** A plan as both APIs show it (contract §25): amounts on the wire, the payer's rate a percent. */
export function installmentPlanRepresentation(plan: InstallmentPlan) {
  return {
    installments: plan.installments,
    installmentAmount: plan.installmentAmount.toWire(),
    totalAmount: plan.totalAmount.toWire(),
    interestFree: plan.interestFree,
    payerRate: plan.payerRateBp / 100,
    merchantFinancingFee: plan.merchantFinancingFee?.toWire() ?? null,
  };
}

/**
 * Installment quotes (contract §25): the plans the merchant's processor offers for a card and an
 * amount, limited by the merchant's policy in the processor's country — no more installments than its
 * maximum, none below its least installment — in one shape whatever the processor. The single payment
 * is always among them. What the processor says of interest is what the payer is shown: a plan is
 * interest-free when the processor charges the payer nothing more.
 */
@Injectable()
export class InstallmentQuotesService {
  constructor(
    private readonly merchants: MerchantService,
    private readonly processors: MerchantCountryProcessorService,
    private readonly configurations: MerchantConfigurationService,
    private readonly instruments: PaymentInstrumentService,
    private readonly routing: GatewayRouting,
  ) {}

  async quote(caller: Caller, command: InstallmentQuoteCommand): Promise<InstallmentPlan[]> {
    const merchant = await this.merchants.resolve(caller, command.merchantId);
    const { amount } = command;
    const instrument = command.paymentInstrumentId
      ? (await this.instruments.loadVisible(caller, command.paymentInstrumentId)).snapshot()
      : null;
    if (instrument && (instrument.merchantId !== merchant.id || !instrument.active)) throw new DomainError('PAYMENT_INSTRUMENT_NOT_FOUND');
    // Installments are a credit card's: of a method offered for several instrument types, its credit card answers.
    const offered = (await this.processors.offeredCountryProcessors(merchant.id))
      .filter((p) => p.currencies.includes(amount.currency))
      .sort((a, b) => Number(b.paymentInstrumentType.name === 'CREDIT_CARD') - Number(a.paymentInstrumentType.name === 'CREDIT_CARD'));
    const processor = offered.find((p): boolean =>
      command.countryProcessorId !== undefined
        ? p.countryProcessorId === command.countryProcessorId
        : command.paymentMethod !== undefined
          ? p.paymentMethod.name === command.paymentMethod
          : instrument !== null &&
            p.paymentMethod.paymentMethodId === instrument.paymentMethodId &&
            (!instrument.paymentInstrumentTypeId || p.paymentInstrumentType.paymentInstrumentTypeId === instrument.paymentInstrumentTypeId),
    );
    if (!processor) throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE');
    if (instrument && processor.paymentMethod.paymentMethodId !== instrument.paymentMethodId)
      throw new DomainError('PAYMENT_METHOD_NOT_AVAILABLE', 'the saved instrument is not of this method', {
        method: processor.paymentMethod.name,
        country: processor.country.iso3,
      });
    const policy = await this.configurations.installmentPolicyFor(merchant.id, processor.country.iso3);
    const plans = await this.processorPlans(merchant.id, processor, policy, command.bin ?? null, amount);
    return plans
      .filter((plan) => plan.installments === 1 || this.withinPolicy(plan, policy, amount))
      .sort((a, b) => a.installments - b.installments)
      .map((plan) => {
        const total = Money.ofMinor(plan.totalAmount, amount.currency);
        const interest = plan.totalAmount - amount.minor;
        return {
          installments: plan.installments,
          installmentAmount: Money.ofMinor(plan.installmentAmount, amount.currency),
          totalAmount: total,
          interestFree: interest <= 0,
          payerRateBp: interest <= 0 ? 0 : Math.round((interest * 10_000) / amount.minor),
          merchantFinancingFee: plan.merchantFinancingFee === null ? null : Money.ofMinor(plan.merchantFinancingFee, amount.currency),
          planId: plan.planId ?? null,
        };
      });
  }

  /**
   * The merchant's installment offer for one payment at a processor (contract §25), and the
   * installments asked for checked against it: within the policy and, where our page or the sandbox's
   * offers the plans, among the processor's plans for the amount. A processor whose page lets the
   * payer choose takes no installments from us. Null offer: one payment only.
   */
  async offerFor(
    merchantId: MerchantId,
    processor: CountryProcessor,
    gateway: PaymentGateway,
    amount: Money,
    asked?: number,
    tx?: Transaction,
  ): Promise<InstallmentOffer | null> {
    if (asked !== undefined && asked > 1 && choosesInstallmentsOnItsPage(gateway))
      throw new DomainError('INSTALLMENTS_CHOSEN_AT_PROCESSOR', undefined, { provider: gateway.displayName });
    const policy = await this.configurations.installmentPolicyFor(merchantId, processor.country.iso3, tx);
    const offer =
      policy.maxInstallments > 1
        ? {
            maxInstallments: policy.maxInstallments,
            interestFreeUpTo: policy.interestFreeUpTo,
            minInstallmentAmount: policy.minInstallmentAmount[amount.currency] ?? null,
          }
        : null;
    if (asked === undefined || asked === 1) return offer;
    const offered =
      offer === null
        ? [1]
        : (await this.processorPlans(merchantId, processor, policy, null, amount))
            .filter((plan) => plan.installments === 1 || this.withinPolicy(plan, policy, amount))
            .map((plan) => plan.installments);
    if (!offered.includes(asked))
      throw new DomainError('INSTALLMENT_PLAN_NOT_OFFERED', undefined, { installments: String(asked), offered: offered.join(', ') });
    return offer;
  }

  /**
   * The offer a payer's page shows among `methods` (contract §25): the merchant's policy in the
   * country of its credit card methods, when it offers more than one installment; null otherwise.
   */
  async offerShown(merchantId: MerchantId, methods: readonly CountryProcessor[]): Promise<InstallmentOfferShown | null> {
    const card = methods.find((m) => m.paymentInstrumentType.name === 'CREDIT_CARD');
    if (!card) return null;
    const policy = await this.configurations.installmentPolicyFor(merchantId, card.country.iso3);
    return policy.maxInstallments > 1 ? { maxInstallments: policy.maxInstallments, interestFreeUpTo: policy.interestFreeUpTo } : null;
  }

  /** The processor's plans for the card and amount (its answer is bounded: slow or down is GATEWAY_UNREACHABLE). */
  private async processorPlans(
    merchantId: MerchantId,
    processor: CountryProcessor,
    policy: CountryInstallmentPolicy,
    bin: string | null,
    amount: Money,
  ): Promise<readonly ProcessorInstallmentPlan[]> {
    const gateway = await this.routing.gatewayFor(merchantId, processor);
    // A processor that quotes no plans offers the single payment only.
    if (!quotesInstallments(gateway))
      return [{ installments: 1, installmentAmount: amount.minor, totalAmount: amount.minor, merchantFinancingFee: null }];
    const plans = await gateway.quoteInstallments({
      merchantId,
      method: collectionMethodOf(processor),
      bin,
      currency: amount.currency,
      amount: amount.minor,
      interestFreeUpTo: policy.interestFreeUpTo,
    });
    // The single payment is always offered, whatever the processor lists.
    return plans.some((p) => p.installments === 1)
      ? plans
      : [{ installments: 1, installmentAmount: amount.minor, totalAmount: amount.minor, merchantFinancingFee: null }, ...plans];
  }

  private withinPolicy(plan: ProcessorInstallmentPlan, policy: CountryInstallmentPolicy, amount: Money): boolean {
    const least = policy.minInstallmentAmount[amount.currency];
    return plan.installments <= policy.maxInstallments && (least === undefined || plan.installmentAmount >= least);
  }
}
