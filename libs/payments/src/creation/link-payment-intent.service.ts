import { Injectable } from '@nestjs/common';
import { Caller, DomainError, InvalidRequestError, moneyFromWire, PaymentIntentId, Transaction, UnitOfWork } from '@pcs/kernel';
import { LinkId, LinkPayment, LinkService } from '@pcs/links';
import { MerchantService } from '@pcs/merchants';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { CreationRules } from './creation-rules';
import { linkIntent } from '../domain/payment-intent-origins';

/** Operation 24's request; a sent amount is a wire decimal, read here in the link's currency. */
export interface LinkPaymentIntentCommand {
  readonly paymentInstrumentTypeName: string;
  readonly paymentMethodName: string;
  readonly amount?: number;
  readonly description?: string;
  readonly paymentIntentAdditionalInfo?: Record<string, unknown>;
}

/** Attempts at the unlocked path before the link is taken for update (it kept changing under the payment). */
const UNLOCKED_ATTEMPTS = 3;

/**
 * Paying from a link (operation 24): a payment intent with the link's
 * amount, currency, country, VAT and description, ready for operation 21,
 * and the link used — in two round trips and no explicit transaction: the
 * link is read with its processors (the merchant comes from memory), then
 * one statement inserts the intent and writes the link's use, both events
 * and their jobs, the use finding its row only while the link is the
 * version read and still ACTIVE. Of any number of concurrent payments
 * exactly one writes it; the others' statements write nothing and they find
 * the link used (409). A link that changed since it was read (operation 31)
 * is read again; after a few such changes the link is taken for update.
 */
@Injectable()
export class LinkPaymentIntentService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly links: LinkService,
    private readonly merchants: MerchantService,
    private readonly intents: PaymentIntentRepository,
    private readonly rules: CreationRules,
  ) {}

  async create(caller: Caller, linkId: LinkId, command: LinkPaymentIntentCommand, operationId?: string): Promise<PaymentIntent> {
    return this.rules.once(
      operationId,
      (paymentIntentId) => this.rules.resume(caller, paymentIntentId),
      async (paymentIntentId) => {
        for (let attempt = 1; attempt <= UNLOCKED_ATTEMPTS; attempt++) {
          const written = await this.attempt(caller, linkId, command, paymentIntentId, this.unitOfWork.outside, false);
          if (written) return written;
          // Gone, used or expired: refused with its error; otherwise it changed since it was read.
          await this.links.refusalOfUse(caller, linkId);
        }
        const written = await this.unitOfWork.run((tx) => this.attempt(caller, linkId, command, paymentIntentId, tx, true));
        if (written) return written;
        await this.links.refusalOfUse(caller, linkId);
        throw new Error('a link taken for update changed under its payment');
      },
    );
  }

  /** One try: the intent and the link's use in one statement; null when the link was not as read. */
  private async attempt(
    caller: Caller,
    linkId: LinkId,
    command: LinkPaymentIntentCommand,
    paymentIntentId: PaymentIntentId,
    tx: Transaction,
    lock: boolean,
  ): Promise<PaymentIntent | null> {
    const payment = await this.links.forPayment(caller, linkId, tx, lock);
    const intent = await this.intentFor(caller, payment, command, paymentIntentId);
    const use = await this.links.useOf(payment, intent.id, intent.snapshot().createdAt);
    const written = await this.intents.recordWith(tx, intent, {
      alongside: [use.change],
      events: [use.event],
    });
    return written ? intent : null;
  }

  private async intentFor(
    caller: Caller,
    payment: LinkPayment,
    command: LinkPaymentIntentCommand,
    paymentIntentId: PaymentIntentId,
  ): Promise<PaymentIntent> {
    const { link } = payment;
    const l = link.snapshot();
    const processor = payment.offers.find(
      (p) => p.paymentMethod.name === command.paymentMethodName && p.paymentInstrumentType.name === command.paymentInstrumentTypeName,
    );
    if (!processor) {
      const method = `${command.paymentMethodName} ${command.paymentInstrumentTypeName}`;
      throw new DomainError('PAYMENT_METHOD_NOT_AVAILABLE', `the link does not offer ${method}`, { method, country: 'this link' });
    }
    if (command.amount !== undefined && !moneyFromWire('amount', command.amount, l.currency).equals(link.amount))
      throw new InvalidRequestError(['amount'], "amount must equal the link's amount");
    (await this.merchants.load(caller, l.merchantId)).assertCanCollect();
    return linkIntent(
      {
        paymentIntentId,
        businessId: l.businessId,
        merchantId: l.merchantId,
        countryId: l.countryId,
        amount: link.amount,
        vatRateBp: l.vatRateBp,
        createdAt: new Date(),
      },
      { linkId: link.id, reference: l.reference },
      {
        description: command.description ?? l.description,
        preferredPaymentMethod: command.paymentMethodName,
        preferredInstrumentType: command.paymentInstrumentTypeName,
        additionalInfo: command.paymentIntentAdditionalInfo ?? null,
      },
    );
  }
}
