import { Injectable } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import { asMerchantId, Currency, localDateOf, localTimeOf, pixKeyKind, Transaction, UnitOfWork, wireAmount } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { csvLine } from '@pcs/pages';
import * as crypto from 'node:crypto';
import { BusinessCalendar } from './domain/business-calendar';
import { calendarOf } from './domain/country-calendar';
import type { Payout } from './domain/payout';
import type { Bank } from './domain/settlement-account';
import { Cnab240Beneficiary, Cnab240Payment, cnab240Remittance } from './rails/bank-files/cnab240';
import {
  DebtorAccount,
  PayoutBatchRecord,
  PayoutBatchRepository,
  PayoutRepository,
  SettlementAccountRepository,
} from './settlement.repository';

export type { DebtorAccount, PayoutBatchRecord } from './settlement.repository';

/** Why an export or a debtor account was refused (the operator's command says it as it is). */
export class BankFileError extends Error {}

/** The most payouts one export takes per bank (the rest wait for the next). */
const EXPORT_LIMIT = 10_000;

const CSV_COLUMNS = [
  'batchId',
  'payoutId',
  'bankCode',
  'bankName',
  'accountType',
  'accountNumber',
  'holderDocument',
  'currency',
  'amount',
  'createdAt',
];

/** The names a batch's files take: the bank, the business and the batch's number, so that they sort and never collide. */
export function batchFileName(batch: Pick<PayoutBatchRecord, 'businessId' | 'sequence'>, bank: Bank, kind: 'csv' | 'cnab240'): string {
  return `${bank.country}-${bank.code}-${batch.businessId}-${String(batch.sequence).padStart(6, '0')}.${kind === 'csv' ? 'csv' : 'rem'}`;
}

/** FEBRABAN's "seu número" of a payout: its id's first 20 hexadecimal digits, which the bank's return quotes back. */
export function bankReferenceOf(payoutId: string): string {
  return payoutId.replace(/-/g, '').slice(0, 20).toUpperCase();
}

/**
 * Bank files that cannot pay twice (contract §24). An export records, for
 * each business with payouts waiting for the bank, a batch — its id, its
 * payouts, its files' content and checksums (the CSV, and for a Brazilian
 * bank the CNAB 240 remittance) — in the transaction that marks those
 * payouts exported; only then are the files written, from the batch. A crash
 * between the two leaves a batch to write again (`payouts:export --batch`),
 * byte for byte; a payout joins one batch, once (the database refuses a
 * second).
 */
@Injectable()
export class PayoutBatchesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly payouts: PayoutRepository,
    private readonly batches: PayoutBatchRepository,
    private readonly accounts: SettlementAccountRepository,
    private readonly merchants: MerchantService,
    private readonly catalog: CatalogService,
    private readonly calendar: BusinessCalendar,
  ) {}

  bank(bankId: string): Promise<Bank | null> {
    return this.accounts.bank(this.unitOfWork.outside, bankId);
  }

  /** The bank's batches: one per business with payouts waiting (only `businessId`'s when given), recorded, not yet written. */
  async export(bankId: string, options: { businessId?: string; now?: Date } = {}): Promise<PayoutBatchRecord[]> {
    const now = options.now ?? new Date();
    return this.unitOfWork.run(async (tx) => {
      const bank = await this.accounts.bank(tx, bankId);
      if (!bank) throw new BankFileError('no bank has that id (GET /bank)');
      const waiting = await this.payouts.awaitingExport(tx, bankId, EXPORT_LIMIT, options.businessId);
      // A batch per business and currency (contract §28: bank files per currency): a file never sums two currencies.
      const groups = new Map<string, { businessId: string; currency: Currency; payouts: Payout[] }>();
      for (const payout of waiting) {
        const { businessId, currency } = payout.snapshot();
        const key = `${businessId} ${currency}`;
        const group = groups.get(key) ?? { businessId, currency, payouts: [] };
        group.payouts.push(payout);
        groups.set(key, group);
      }
      // A CNAB 240 remittance pays reais only: the BRL batches of a Brazilian bank are remittances, each business's
      // needing its debtor account (refused before anything is recorded). Another currency there (a payout made before
      // such payouts were refused) goes in a CSV of its own.
      const remits = (currency: Currency) => bank.country === 'BRA' && currency === Currency.BRL;
      const debtors = new Map<string, DebtorAccount>();
      for (const { businessId, currency } of groups.values()) {
        if (!remits(currency) || debtors.has(businessId)) continue;
        const debtor = await this.batches.debtor(tx, businessId, 'BRA');
        if (!debtor)
          throw new BankFileError(
            `business ${businessId} has no debtor account for CNAB 240 remittances: set it with payouts:debtor-account:set`,
          );
        debtors.set(businessId, debtor);
      }
      const recorded: PayoutBatchRecord[] = [];
      for (const { businessId, currency, payouts } of groups.values()) {
        const batchId = crypto.randomUUID();
        const sequence = await this.batches.nextSequence(tx, businessId);
        const csv = payoutsCsv(batchId, bank, payouts);
        const debtor = remits(currency) ? debtors.get(businessId) : undefined;
        const cnab240 = debtor ? await this.remittance(tx, debtor, bank, sequence, payouts, now) : null;
        const batch: PayoutBatchRecord = {
          batchId,
          businessId,
          bankId,
          sequence,
          payoutCount: payouts.length,
          totals: [{ currency, amount: payouts.reduce((sum, payout) => sum + payout.snapshot().amount, 0) }],
          csv,
          csvSha256: sha256(csv),
          cnab240,
          cnab240Sha256: cnab240 === null ? null : sha256(cnab240),
          createdAt: now,
          writtenAt: null,
        };
        await this.batches.insert(tx, batch);
        for (const payout of payouts) {
          if (!payout.markExported(now, batchId)) throw new Error(`payout ${payout.id} cannot join batch ${batchId}`);
          await this.payouts.save(tx, payout);
        }
        recorded.push(batch);
      }
      return recorded;
    });
  }

  /** A recorded batch, to write its files (again). */
  find(batchId: string): Promise<PayoutBatchRecord | null> {
    return this.batches.find(this.unitOfWork.outside, batchId);
  }

  /** The batch's files were written (the last time, when written again). */
  async markWritten(batchId: string, at = new Date()): Promise<void> {
    await this.batches.markWritten(this.unitOfWork.outside, batchId, at);
  }

  /** The payouts a batch holds. */
  payoutsOf(batchId: string): Promise<Payout[]> {
    return this.payouts.ofBatch(this.unitOfWork.outside, batchId);
  }

  /**
   * `payouts:debtor-account:set`: the business's account at a Brazilian bank
   * that its CNAB 240 remittances debit. The account is written
   * branch[-digit]/account-digit, as settlement accounts are.
   */
  async setDebtor(input: {
    businessId: string;
    bankId: string;
    document: string;
    name: string;
    account: string;
    agreement?: string;
  }): Promise<DebtorAccount> {
    const bank = await this.accounts.bank(this.unitOfWork.outside, input.bankId);
    if (!bank || bank.country !== 'BRA') throw new BankFileError('--bank must be a Brazilian bank of the list (GET /bank?country=BRA)');
    const document = input.document.replace(/\D/g, '');
    if (document.length !== 14 && document.length !== 11) throw new BankFileError('--document must be the CNPJ (14 digits) or CPF (11)');
    const parsed = brazilianAccount(input.account);
    if (!parsed) throw new BankFileError('--account must be written branch/account-digit, as 0001/12345678-9');
    const name = input.name.trim();
    if (name.length === 0) throw new BankFileError('--name is the company’s name as the bank knows it');
    const agreement = (input.agreement ?? '').trim();
    if (agreement.length > 20) throw new BankFileError('--agreement has at most 20 characters');
    const account: DebtorAccount = {
      businessId: input.businessId,
      country: 'BRA',
      bankId: bank.bankId,
      document,
      name: name.slice(0, 30),
      agreement,
      ...parsed,
      updatedAt: new Date(),
    };
    await this.batches.putDebtor(this.unitOfWork.outside, account);
    return account;
  }

  private async remittance(
    tx: Transaction,
    debtor: DebtorAccount,
    bank: Bank,
    sequence: number,
    payouts: readonly Payout[],
    now: Date,
  ): Promise<string> {
    // FEBRABAN's layout has no currency: every amount of a remittance is reais.
    const foreign = payouts.find((payout) => payout.snapshot().currency !== Currency.BRL);
    if (foreign) throw new Error(`payout ${foreign.id} is in ${foreign.snapshot().currency}: a CNAB 240 remittance pays BRL only`);
    const debtorBank = await this.accounts.bank(tx, debtor.bankId);
    const country = await this.catalog.findCountryByIso3('BRA');
    if (!debtorBank || !country) throw new Error('the debtor’s bank or Brazil is missing from the catalog');
    const calendar = calendarOf(country);
    const generatedOn = localDateOf(now, calendar.timeZone);
    const payments: Cnab240Payment[] = [];
    for (const payout of payouts) {
      const p = payout.snapshot();
      const merchant = await this.merchants.findById(asMerchantId(p.merchantId), tx);
      const holder = { name: merchant?.merchantName ?? '', document: p.destination.holderDocument?.replace(/\D/g, '') || null };
      let beneficiary: Cnab240Beneficiary;
      const kind = p.destination.accountType === 'PIX_KEY' ? pixKeyKind(p.destination.accountNumber) : null;
      if (kind) beneficiary = { ...holder, pixKey: p.destination.accountNumber, pixKind: kind };
      else {
        const account = brazilianAccount(p.destination.accountNumber);
        if (!account) throw new Error(`payout ${p.payoutId}: ${p.destination.accountNumber} is not a Brazilian account`);
        beneficiary = { ...holder, bankCode: bank.code, ...account, savings: p.destination.accountType === 'SAVINGS' };
      }
      payments.push({ reference: bankReferenceOf(p.payoutId), amount: p.amount, beneficiary });
    }
    return cnab240Remittance({
      debtor: { ...debtor, bankCode: debtorBank.code, bankName: debtorBank.name },
      sequence,
      generatedOn,
      generatedAt: localTimeOf(now, calendar.timeZone),
      paymentDate: this.calendar.businessDayOnOrAfter(calendar, generatedOn),
      payments,
    });
  }
}

/** A Brazilian account as settlement accounts keep it (`0001-7/12345678-9`), in its parts. */
function brazilianAccount(text: string): { branch: string; branchDigit: string; account: string; accountDigit: string } | null {
  const match = /^(\d{4})(?:-([\dX]))?\s*\/\s*(\d{1,12})-([\dX])$/i.exec(text.trim());
  return match
    ? { branch: match[1], branchDigit: (match[2] ?? '').toUpperCase(), account: match[3], accountDigit: match[4].toUpperCase() }
    : null;
}

/** The CSV a bank without CNAB imports: a line per payout, amounts as decimals, spreadsheet formulas defused. */
function payoutsCsv(batchId: string, bank: Bank, payouts: readonly Payout[]): string {
  const lines = [csvLine(CSV_COLUMNS)];
  for (const payout of payouts) {
    const p = payout.snapshot();
    lines.push(
      csvLine([
        batchId,
        p.payoutId,
        bank.code,
        bank.name,
        p.destination.accountType,
        p.destination.accountNumber,
        p.destination.holderDocument,
        p.currency,
        wireAmount(p.amount, p.currency),
        p.createdAt.toISOString(),
      ]),
    );
  }
  return lines.join('');
}

function sha256(text: string): string {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}
