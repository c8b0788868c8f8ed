import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { inTransaction, isUniqueViolation } from '@pcs/database';
import { asPaymentIntentId, Caller, DomainError, InvalidRequestError, Money, newId, PayinType, PaymentIntentId } from '@pcs/kernel';
import { LinkId, LinkService } from '@pcs/links';
import { MerchantService } from '@pcs/merchants';
import { DataSource } from 'typeorm';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { CreationRules } from './creation-rules';

/** Operation 24's request (the amount, when sent, read at the edge in the link's currency). */
export interface LinkPaymentIntentCommand {
  readonly paymentInstrumentTypeName: string;
  readonly paymentMethodName: string;
  readonly amount?: Money;
  readonly description?: string;
  readonly paymentIntentAdditionalInfo?: Record<string, unknown>;
}

/**
 * Paying from a link (operation 24): a payment intent with the link's
 * amount, currency, country, VAT and description, ready for operation 21,
 * and the link used, in one transaction. The link is taken for update first,
 * so of any number of concurrent attempts exactly one succeeds; the others
 * find it used (409).
 */
@Injectable()
export class LinkPaymentIntentService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly links: LinkService,
    private readonly merchants: MerchantService,
    private readonly intents: PaymentIntentRepository,
    private readonly rules: CreationRules,
  ) {}

  async create(caller: Caller, linkId: LinkId, command: LinkPaymentIntentCommand, operationId?: string): Promise<PaymentIntent> {
    const earlier = operationId && (await this.rules.resume(caller, asPaymentIntentId(operationId)));
    if (earlier) return earlier;
    const paymentIntentId: PaymentIntentId = operationId ? asPaymentIntentId(operationId) : newId<PaymentIntentId>();
    return inTransaction(this.dataSource, async (manager) => {
      const link = await this.links.loadForPayment(manager, caller, linkId);
      const l = link.snapshot();
      const processor = (await this.links.processorsOf(link)).find(
        (p) => p.paymentMethod.name === command.paymentMethodName && p.paymentInstrumentType.name === command.paymentInstrumentTypeName,
      );
      if (!processor) {
        const method = `${command.paymentMethodName} ${command.paymentInstrumentTypeName}`;
        throw new DomainError('PAYMENT_METHOD_NOT_AVAILABLE', `the link does not offer ${method}`, { method, country: 'this link' });
      }
      if (command.amount && !command.amount.equals(link.amount))
        throw new InvalidRequestError(['amount'], "amount must equal the link's amount");
      (await this.merchants.load(caller, l.merchantId, manager)).assertCanCollect();
      const intent = PaymentIntent.create({
        paymentIntentId,
        businessId: l.businessId,
        merchantId: l.merchantId,
        payerId: null,
        paymentInstrumentId: null,
        countryId: l.countryId,
        origin: 'LINK',
        payinType: PayinType.DEFAULT,
        amount: link.amount,
        tip: Money.zero(l.currency),
        vatRateBp: l.vatRateBp,
        externalReference: l.reference,
        externalInvoiceId: null,
        invoiceNumber: null,
        invoiceEmail: null,
        description: command.description ?? l.description,
        receiptEmail: (command.paymentIntentAdditionalInfo?.payerInfo as { email?: string } | undefined)?.email ?? null,
        setupFutureUsage: false,
        offSession: false,
        confirmationMethod: 'MANUAL',
        metadata: null,
        linkId: link.id,
        preferredPaymentMethod: command.paymentMethodName,
        preferredInstrumentType: command.paymentInstrumentTypeName,
        allowedPaymentMethods: null,
        additionalInfo: command.paymentIntentAdditionalInfo ?? null,
        createdAt: new Date(),
      });
      await this.intents.insert(manager, intent);
      await this.links.markUsed(manager, link, intent.id);
      return intent;
    }).catch(async (error: unknown) => {
      // The same operation committed meanwhile (a retry racing its own first attempt).
      if (isUniqueViolation(error, 'payment_intent_pkey')) return (await this.rules.resume(caller, paymentIntentId))!;
      throw error;
    });
  }
}
