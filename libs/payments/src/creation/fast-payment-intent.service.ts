import { Injectable } from '@nestjs/common';
import { Caller, DomainError, Money, PaymentIntentId, UnitOfWork } from '@pcs/kernel';
import { MerchantConfigurationService, MerchantService } from '@pcs/merchants';
import { AvailableProcessorsService } from '../available-processors.service';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { CreationRules } from './creation-rules';
import { fastIntent } from '../domain/payment-intent-origins';

/** Operation 18's request, syntax checked and the amount read at the edge. */
export interface FastPaymentIntentCommand {
  /** Gross, VAT included, in the request's currency. */
  amount: Money;
  comment?: string;
  paymentInstrumentTypeName?: string;
  paymentMethodName?: string;
  merchantShortName: string;
  countryCode: string;
  paymentIntentAdditionalInfo?: Record<string, unknown>;
}

@Injectable()
export class FastPaymentIntentService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly merchants: MerchantService,
    private readonly configurations: MerchantConfigurationService,
    private readonly intents: PaymentIntentRepository,
    private readonly available: AvailableProcessorsService,
    private readonly rules: CreationRules,
  ) {}

  /**
   * Operation 18. The merchant is the one whose configuration has this
   * shortName with fast payments enabled (and that the caller may act for);
   * VAT is the merchant's configured rate for the country, else the country's
   * default (specification, rule 2).
   */
  async create(caller: Caller, command: FastPaymentIntentCommand, operationId?: string): Promise<PaymentIntent> {
    return this.rules.once(
      operationId,
      (paymentIntentId) => this.rules.resume(caller, paymentIntentId),
      (paymentIntentId) => this.write(caller, command, paymentIntentId),
    );
  }

  private async write(caller: Caller, command: FastPaymentIntentCommand, paymentIntentId: PaymentIntentId): Promise<PaymentIntent> {
    const merchantId = await this.configurations.fastPaymentMerchantId(command.merchantShortName);
    if (!merchantId) throw new DomainError('FAST_PAYMENTS_NOT_ENABLED');
    const merchant = await this.merchants.load(caller, merchantId).catch((error: unknown) => {
      throw error instanceof DomainError && error.code === 'MERCHANT_NOT_FOUND' ? new DomainError('FAST_PAYMENTS_NOT_ENABLED') : error;
    });
    merchant.assertCanCollect();
    const country = await this.rules.countryAccepting(command.countryCode, command.amount.currency);
    const vatRateBp = await this.rules.vatRate(merchantId, country, undefined);
    const intent = fastIntent(
      {
        paymentIntentId,
        businessId: caller.businessId,
        merchantId,
        countryId: country.countryId,
        amount: command.amount,
        vatRateBp,
        createdAt: new Date(),
      },
      {
        description: command.comment ?? null,
        preferredPaymentMethod: command.paymentMethodName ?? null,
        preferredInstrumentType: command.paymentInstrumentTypeName ?? null,
        additionalInfo: command.paymentIntentAdditionalInfo ?? null,
      },
    );
    if ((command.paymentMethodName || command.paymentInstrumentTypeName) && (await this.available.of(intent)).length === 0) {
      const method = [command.paymentMethodName, command.paymentInstrumentTypeName].filter(Boolean).join(' ');
      throw new DomainError('PAYMENT_METHOD_NOT_AVAILABLE', `the merchant has no active processor for ${method} in ${country.iso3}`, {
        method,
        country: country.iso3,
      });
    }
    // With its payment_intent.created event and the event's job: one statement.
    await this.intents.insert(this.unitOfWork.outside, intent);
    return intent;
  }
}
