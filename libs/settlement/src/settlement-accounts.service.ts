import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CatalogService } from '@pcs/catalog';
import { inTransaction } from '@pcs/database';
import { Caller, Currency, DomainError, MerchantId, pixKeyKind } from '@pcs/kernel';
import { Merchant, MerchantService, MerchantUpdate, MerchantView } from '@pcs/merchants';
import { DataSource, EntityManager } from 'typeorm';
import { AccountDetails, AccountType, Bank, checkAccount, SettlementAccount } from './domain/settlement-account';
import { SettlementAccountRepository } from './settlement.repository';

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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accounts: SettlementAccountRepository,
    private readonly merchants: MerchantService,
    private readonly catalog: CatalogService,
  ) {}

  /** The banks of a country (all when none is given), by code. */
  banks(country?: string): Promise<Bank[]> {
    return this.accounts.banks(this.dataSource.manager, country);
  }

  /** Sets the merchant's account in a currency (replacing the one it had). */
  async put(
    caller: Caller,
    merchantId: MerchantId,
    currency: Currency,
    details: AccountDetails & { bankId: string },
    within?: EntityManager,
  ): Promise<SettlementAccount> {
    const merchant = await this.merchants.load(caller, merchantId, within);
    return this.putFor(merchant, currency, details, within ?? this.dataSource.manager);
  }

  /** The merchant's accounts, by currency. */
  async list(caller: Caller, merchantId: MerchantId): Promise<SettlementAccount[]> {
    const merchant = await this.merchants.load(caller, merchantId);
    return this.accounts.ofMerchants(this.dataSource.manager, [merchant.id]);
  }

  /** The accounts of these merchants (already visible to the caller), for their representation. */
  async accountsOf(merchantIds: readonly MerchantId[]): Promise<SettlementAccount[]> {
    return this.accounts.ofMerchants(this.dataSource.manager, merchantIds);
  }

  /** The merchant's account in a currency, for the service's own flows (payouts). */
  find(merchantId: MerchantId, currency: Currency, manager: EntityManager = this.dataSource.manager): Promise<SettlementAccount | null> {
    return this.accounts.find(manager, merchantId, currency);
  }

  /** The accounts held at a country's banks (its merchants'), for the scheduled payouts. */
  ofCountry(country: string): Promise<SettlementAccount[]> {
    return this.accounts.ofCountry(this.dataSource.manager, country);
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
    return inTransaction(this.dataSource, async (manager) => {
      const merchant = await this.merchants.load(caller, merchantId, manager);
      const accountType: AccountType =
        (await this.countryOf(merchant)) === 'BRA' && pixKeyKind(accountNumber.trim()) ? 'PIX_KEY' : 'CHECKING';
      await this.putFor(merchant, currency, { bankId, accountNumber, accountType }, manager);
      return this.merchants.update(caller, merchantId, changes, manager);
    });
  }

  private async putFor(
    merchant: Merchant,
    currency: Currency,
    details: AccountDetails & { bankId: string },
    manager: EntityManager,
  ): Promise<SettlementAccount> {
    const country = await this.catalog.findCountryById(merchant.snapshot().countryId);
    if (!country) throw new Error(`merchant ${merchant.id} has no country`);
    if (!country.currencies.includes(currency))
      throw invalid(
        `${country.iso3} pays out in ${country.currencies.join(' or ')}, not ${currency}`,
        `${country.iso3} liquida en ${country.currencies.join(' o ')}, no en ${currency}`,
      );
    const bank = await this.accounts.bank(manager, details.bankId);
    if (!bank) throw invalid('bankId is not a bank of the list (GET /bank)', 'bankId no es un banco de la lista (GET /bank)');
    const check = checkAccount(bank, country.iso3, details);
    if (!check.ok) throw invalid(check.reason, check.reasonEs);
    const { businessId, merchantId } = merchant.snapshot();
    return this.accounts.put(
      manager,
      {
        businessId,
        merchantId,
        currency,
        bankId: bank.bankId,
        accountNumber: check.accountNumber,
        accountType: details.accountType,
        holderDocument: check.holderDocument,
      },
      new Date(),
    );
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
    createdAt: account.createdAt.toISOString(),
    updatedAt: account.updatedAt.toISOString(),
  };
}

export function bankRepresentation(bank: Bank) {
  return { bankId: bank.bankId, country: bank.country, code: bank.code, name: bank.name, ...(bank.ispb ? { ispb: bank.ispb } : {}) };
}
