import { Injectable } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import { RuntimeSettings } from '@pcs/config';
import { Caller, Currency, DomainError, MerchantId, pixKeyKind, Transaction, UnitOfWork } from '@pcs/kernel';
import { Merchant, MerchantService, MerchantUpdate, MerchantView } from '@pcs/merchants';
import { AccountDetails, AccountType, Bank, checkAccount, sameAccount, SettlementAccount } from './domain/settlement-account';
import { SettlementAccountRepository } from './settlement.repository';
import { SettlementEvents } from './settlement-events';

function invalid(reason: string, reasonEs: string): DomainError {
  return new DomainError('INVALID_SETTLEMENT_ACCOUNT', `the settlement account is not valid: ${reason}`, { reason, reasonEs });
}

/**
 * Where payouts go (contract §19): the bank catalog of each country and the
 * merchants' settlement accounts, one per currency, each checked against its
 * country's rules (CBU/CVU check digits, Brazilian branch and account or PIX
 * key, Uruguayan digits) before it is kept.
 */
@Injectable()
export class SettlementAccountsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: SettlementAccountRepository,
    private readonly merchants: MerchantService,
    private readonly catalog: CatalogService,
    private readonly announce: SettlementEvents,
    private readonly settings: RuntimeSettings,
  ) {}

  /** The banks of a country (all when none is given), by code. */
  banks(country?: string): Promise<Bank[]> {
    return this.accounts.banks(this.unitOfWork.outside, country);
  }

  /** Sets the merchant's account in a currency (replacing the one it had). */
  async put(
    caller: Caller,
    merchantId: MerchantId,
    currency: Currency,
    details: AccountDetails & { bankId: string },
    within?: Transaction,
  ): Promise<SettlementAccount> {
    if (!within) return this.unitOfWork.run((tx) => this.put(caller, merchantId, currency, details, tx));
    const merchant = await this.merchants.load(caller, merchantId, within);
    return this.putFor(merchant, currency, details, within);
  }

  /** The merchant's accounts, by currency. */
  async list(caller: Caller, merchantId: MerchantId): Promise<SettlementAccount[]> {
    const merchant = await this.merchants.load(caller, merchantId);
    return this.accounts.ofMerchants(this.unitOfWork.outside, [merchant.id]);
  }

  /** The accounts of these merchants (already visible to the caller), for their representation. */
  async accountsOf(merchantIds: readonly MerchantId[]): Promise<SettlementAccount[]> {
    return this.accounts.ofMerchants(this.unitOfWork.outside, merchantIds);
  }

  /** The merchant's account in a currency, for the service's own flows (payouts). */
  find(merchantId: MerchantId, currency: Currency, tx: Transaction = this.unitOfWork.outside): Promise<SettlementAccount | null> {
    return this.accounts.find(tx, merchantId, currency);
  }

  /** The accounts held at a country's banks (its merchants'), for the scheduled payouts. */
  ofCountry(country: string): Promise<SettlementAccount[]> {
    return this.accounts.ofCountry(this.unitOfWork.outside, country);
  }

  /**
   * Operation 3 with the seed's `account.settlementBank` (contract §19): the
   * merchant's account in that currency is set, checked like any other, in
   * the merchant update's own transaction (both or neither). The account's
   * type is CHECKING, or PIX_KEY for a Brazilian number that is a PIX key.
   */
  async updateMerchant(caller: Caller, merchantId: MerchantId, changes: MerchantUpdate): Promise<MerchantView> {
    const bank = changes.account?.settlementBank;
    if (!bank?.bankId || !bank.accountNumber || !bank.currency) return this.merchants.update(caller, merchantId, changes);
    const { bankId, accountNumber, currency } = bank;
    return this.unitOfWork.run(async (tx) => {
      const merchant = await this.merchants.load(caller, merchantId, tx);
      const accountType: AccountType =
        (await this.countryOf(merchant)) === 'BRA' && pixKeyKind(accountNumber.trim()) ? 'PIX_KEY' : 'CHECKING';
      await this.putFor(merchant, currency, { bankId, accountNumber, accountType }, tx);
      return this.merchants.update(caller, merchantId, changes, tx);
    });
  }

  private async putFor(
    merchant: Merchant,
    currency: Currency,
    details: AccountDetails & { bankId: string },
    tx: Transaction,
  ): Promise<SettlementAccount> {
    const country = await this.catalog.findCountryById(merchant.snapshot().countryId);
    if (!country) throw new Error(`merchant ${merchant.id} has no country`);
    if (!country.currencies.includes(currency))
      throw invalid(
        `${country.iso3} pays out in ${country.currencies.join(' or ')}, not ${currency}`,
        `${country.iso3} liquida en ${country.currencies.join(' o ')}, no en ${currency}`,
      );
    const bank = await this.accounts.bank(tx, details.bankId);
    if (!bank) throw invalid('bankId is not a bank of the list (GET /bank)', 'bankId no es un banco de la lista (GET /bank)');
    const check = checkAccount(bank, country.iso3, details);
    if (!check.ok) throw invalid(check.reason, check.reasonEs);
    const { businessId, merchantId } = merchant.snapshot();
    const next = {
      bankId: bank.bankId,
      accountNumber: check.accountNumber,
      accountType: details.accountType,
      holderDocument: check.holderDocument,
    };
    // One change of a merchant's accounts at a time: which one is its first is decided on what is there.
    await this.accounts.holdAccounts(tx, merchantId);
    const existing = await this.accounts.ofMerchants(tx, [merchantId]);
    const current = existing.find((a) => a.currency === currency);
    if (current && sameAccount(current, next)) return current;
    const now = new Date();
    // The first account a merchant ever sets is not held; any later one waits (contract §24).
    const hours = this.settings.settlement.accountHoldHours;
    const holdUntil = existing.length === 0 || hours === 0 ? null : new Date(now.getTime() + hours * 3_600_000);
    const account = await this.accounts.put(tx, { businessId, merchantId, currency, ...next, holdUntil }, now);
    await this.announce.accountUpdated(tx, businessId, account, current ?? null);
    return account;
  }

  /**
   * A dashboard admin ends an account's hold (contract §24). `verify` checks
   * who confirms — an enabled admin of the merchant's business and a fresh
   * code of their authenticator — and answers their email, or null. The
   * account confirmed is the one there when it was verified: one changed
   * meanwhile is refused (it is on hold again, and must be confirmed again).
   */
  async confirm(
    caller: Caller,
    merchantId: MerchantId,
    currency: Currency,
    verify: (merchant: { businessId: string; merchantId: string }, account: SettlementAccount) => Promise<string | null> | string | null,
  ): Promise<SettlementAccount> {
    const merchant = (await this.merchants.load(caller, merchantId)).snapshot();
    const seen = await this.accounts.find(this.unitOfWork.outside, merchant.merchantId, currency);
    if (!seen) throw new DomainError('SETTLEMENT_ACCOUNT_MISSING', undefined, { currency });
    const confirmedBy = await verify({ businessId: merchant.businessId, merchantId: merchant.merchantId }, seen);
    if (!confirmedBy) throw new DomainError('SETTLEMENT_ACCOUNT_CONFIRMATION_REFUSED');
    return this.unitOfWork.run(async (tx) => {
      await this.accounts.holdAccounts(tx, merchant.merchantId);
      const now = await this.accounts.find(tx, merchant.merchantId, currency);
      if (!now || now.updatedAt.getTime() !== seen.updatedAt.getTime())
        throw new DomainError('SETTLEMENT_ACCOUNT_ON_HOLD', undefined, {
          currency,
          holdUntil: now?.holdUntil?.toISOString() ?? new Date().toISOString(),
        });
      return (await this.accounts.confirm(tx, merchant.merchantId, currency, confirmedBy, new Date()))!;
    });
  }

  private async countryOf(merchant: Merchant): Promise<string | undefined> {
    return (await this.catalog.findCountryById(merchant.snapshot().countryId))?.iso3;
  }
}

/** An account as the API shows it. */
export function settlementAccountRepresentation(account: SettlementAccount) {
  return {
    settlementAccountId: account.settlementAccountId,
    merchantId: account.merchantId,
    currency: account.currency,
    bankId: account.bank.bankId,
    bankName: account.bank.name,
    accountNumber: account.accountNumber,
    accountType: account.accountType,
    holderDocument: account.holderDocument,
    holdUntil: account.holdUntil?.toISOString() ?? null,
    returnedPayoutId: account.returnedPayoutId,
    confirmedAt: account.confirmedAt?.toISOString() ?? null,
    createdAt: account.createdAt.toISOString(),
    updatedAt: account.updatedAt.toISOString(),
  };
}

export function bankRepresentation(bank: Bank) {
  return { bankId: bank.bankId, country: bank.country, code: bank.code, name: bank.name, ...(bank.ispb ? { ispb: bank.ispb } : {}) };
}
