import { Injectable } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import { Currency, currencyExponent, decimalToScaledInteger, MerchantId, PaymentIntentId, Transaction } from '@pcs/kernel';
import { MailOutbox } from '@pcs/mail';
import { adminAddressesOf } from '@pcs/dashboard-identity';
import { MerchantConfigurationService, MerchantService } from '@pcs/merchants';
import { PayinLedgerService } from '@pcs/payments';
import { disputeEmail } from './dispute-email';
import { outcomeEmail } from './outcome-email';
import { payoutReturnedEmail } from './payout-returned-email';
import { AccountShown, settlementAccountEmail } from './settlement-account-email';

/** The part of a payment intent event's object an outcome email reads. */
interface IntentObject {
  paymentIntentId: string;
  externalReference: string | null;
  currency: Currency;
  totalAmount: number;
  lastPaymentError: string | null;
}

/** The part of a dispute event's object a dispute email reads. */
interface DisputeObject {
  disputeId: string;
  paymentIntentId: string;
  currency: Currency;
  amount: number;
  reason: string;
  evidenceDueBy: string | null;
  processor: string;
}

/** The part of a settlement_account.updated event's object its email reads. */
interface SettlementAccountObject extends AccountShown {
  merchantId: string;
  currency: string;
  holdUntil: string | null;
  previous: AccountShown | null;
}

/** The part of a payout.returned event's object its email reads. */
interface PayoutObject {
  payoutId: string;
  currency: Currency;
  amount: number;
  failureReason: string | null;
  settlementBank: { bankName: string | null; accountNumber: string; accountType: string };
}

/**
 * Outcome emails (contract §14): when a payment intent succeeds and the
 * merchant asked for success notifications, or an attempt fails and it asked
 * for error notifications, one email to each notification address, queued in
 * the mail outbox inside the dispatch of the event — once per event, so once
 * per outcome however often the gateway repeats its callback. A dispute that
 * opens (contract §21) is told to every notification address whatever the
 * settings: it has a deadline. A settlement account set or changed, and a
 * payout a bank returned (contract §24), are told to those addresses and to
 * the business's dashboard admins: where money goes is everyone's concern.
 */
@Injectable()
export class OutcomeEmails {
  constructor(
    private readonly configurations: MerchantConfigurationService,
    private readonly ledger: PayinLedgerService,
    private readonly catalog: CatalogService,
    private readonly mail: MailOutbox,
    private readonly merchants: MerchantService,
  ) {}

  /** Whether an event of this type may cause an outcome email (others need not be read). */
  concerns(type: string): boolean {
    return outcomeOf(type) !== null || type === 'dispute.created' || type === 'settlement_account.updated' || type === 'payout.returned';
  }

  async queueFor(
    tx: Transaction,
    type: string,
    merchantId: string,
    object: IntentObject | DisputeObject | SettlementAccountObject | PayoutObject,
  ): Promise<number> {
    if (type === 'dispute.created') return this.queueDispute(tx, merchantId, object as DisputeObject);
    if (type === 'settlement_account.updated') return this.queueAccountChange(tx, merchantId, object as SettlementAccountObject);
    if (type === 'payout.returned') return this.queuePayoutReturned(tx, merchantId, object as PayoutObject);
    return this.queueOutcome(tx, type, merchantId, object as IntentObject);
  }

  private async queueDispute(tx: Transaction, merchantId: string, object: DisputeObject): Promise<number> {
    const settings = await this.configurations.outcomeNotifications(merchantId as MerchantId, tx);
    if (!settings || settings.emails.length === 0) return 0;
    const charge = await this.ledger.latestApprovedCharge(tx, object.paymentIntentId as PaymentIntentId);
    for (const to of settings.emails)
      await this.mail.enqueue(
        tx,
        disputeEmail({
          to,
          merchantName: charge?.snapshot().merchantName ?? '',
          disputeId: object.disputeId,
          paymentIntentId: object.paymentIntentId,
          amountMinor: decimalToScaledInteger(object.amount, currencyExponent(object.currency)) ?? 0,
          currency: object.currency,
          reason: object.reason,
          evidenceDueBy: object.evidenceDueBy,
          processor: object.processor,
        }),
      );
    return settings.emails.length;
  }

  /** The merchant's notification addresses and its business's dashboard admins who see it, each once. */
  private async moneyAddresses(tx: Transaction, merchantId: string): Promise<{ merchantName: string; addresses: string[] } | null> {
    const merchant = await this.merchants.findById(merchantId as MerchantId, tx);
    if (!merchant) return null;
    const settings = await this.configurations.outcomeNotifications(merchantId as MerchantId, tx);
    const admins = await adminAddressesOf(tx, merchant.businessId, merchantId);
    const seen = new Set<string>();
    const addresses = [...(settings?.emails ?? []), ...admins].filter((to) => {
      const key = to.toLowerCase();
      return seen.has(key) ? false : (seen.add(key), true);
    });
    return { merchantName: merchant.merchantName, addresses };
  }

  private async queuePayoutReturned(tx: Transaction, merchantId: string, object: PayoutObject): Promise<number> {
    const found = await this.moneyAddresses(tx, merchantId);
    if (!found) return 0;
    for (const to of found.addresses)
      await this.mail.enqueue(
        tx,
        payoutReturnedEmail({
          to,
          merchantName: found.merchantName,
          payoutId: object.payoutId,
          amountMinor: decimalToScaledInteger(object.amount, currencyExponent(object.currency)) ?? 0,
          currency: object.currency,
          bankName: object.settlementBank.bankName,
          accountType: object.settlementBank.accountType,
          accountNumberEnding: object.settlementBank.accountNumber.slice(-4),
          reason: object.failureReason,
        }),
      );
    return found.addresses.length;
  }

  private async queueAccountChange(tx: Transaction, merchantId: string, object: SettlementAccountObject): Promise<number> {
    const found = await this.moneyAddresses(tx, merchantId);
    if (!found) return 0;
    const { merchantName, addresses } = found;
    for (const to of addresses)
      await this.mail.enqueue(
        tx,
        settlementAccountEmail({
          to,
          merchantName,
          currency: object.currency,
          account: object,
          previous: object.previous,
          holdUntil: object.holdUntil,
        }),
      );
    return addresses.length;
  }

  private async queueOutcome(tx: Transaction, type: string, merchantId: string, object: IntentObject): Promise<number> {
    const outcome = outcomeOf(type);
    if (!outcome) return 0;
    const settings = await this.configurations.outcomeNotifications(merchantId as MerchantId, tx);
    if (!settings || settings.emails.length === 0 || !(outcome === 'succeeded' ? settings.onSuccess : settings.onError)) return 0;
    const charge = await this.ledger.latestCharge(tx, object.paymentIntentId as PaymentIntentId);
    const processorId = charge?.snapshot().countryProcessorId;
    const [processor] = processorId ? await this.catalog.findCountryProcessors([processorId]) : [];
    const amountMinor = decimalToScaledInteger(object.totalAmount, currencyExponent(object.currency)) ?? 0;
    for (const to of settings.emails) {
      await this.mail.enqueue(
        tx,
        outcomeEmail({
          outcome,
          to,
          merchantName: charge?.snapshot().merchantName ?? '',
          amountMinor,
          currency: object.currency,
          reference: object.externalReference ?? object.paymentIntentId,
          paymentMethod: processor ? processor.paymentMethod.name : null,
          error: object.lastPaymentError,
        }),
      );
    }
    return settings.emails.length;
  }
}

function outcomeOf(type: string): 'succeeded' | 'failed' | null {
  return type === 'payment_intent.succeeded' ? 'succeeded' : type === 'payment_intent.payment_failed' ? 'failed' : null;
}
