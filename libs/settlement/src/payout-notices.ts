import { Injectable } from '@nestjs/common';
import { adminAddressesOf } from '@pcs/dashboard-identity';
import { Transaction } from '@pcs/kernel';
import { MailOutbox } from '@pcs/mail';
import { payoutCurrencyEmail } from './payout-currency-email';
import type { SettlementAccount } from './domain/settlement-account';
import type { NotCarried } from './rails/payout-rail';

/** Who is told what of payouts that wait (port): the business's dashboard admins, by mail, in the transaction that decides it. */
export abstract class PayoutNotices {
  /** Scheduled payouts of `account`'s currency wait: its bank's rail cannot carry that currency (contract §28). */
  abstract currencyWaits(tx: Transaction, account: SettlementAccount, merchantName: string, why: NonNullable<NotCarried>): Promise<void>;
}

/** The notices as mails in the outbox, to each dashboard admin of the business who sees the merchant. */
@Injectable()
export class MailedPayoutNotices extends PayoutNotices {
  constructor(private readonly mail: MailOutbox) {
    super();
  }

  async currencyWaits(tx: Transaction, account: SettlementAccount, merchantName: string, why: NonNullable<NotCarried>): Promise<void> {
    for (const to of await adminAddressesOf(tx, account.businessId, account.merchantId))
      await this.mail.enqueue(
        tx,
        payoutCurrencyEmail({ to, merchantName, currency: account.currency, reason: { es: why.reasonEs, en: why.reason } }),
      );
  }
}
