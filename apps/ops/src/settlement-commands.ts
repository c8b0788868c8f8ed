/*
 * Why one file: the operator's settlement commands (payouts, bank files, prices, reconciliation), one table as
 * admin-commands.ts.
 */
import { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { CatalogService } from '@pcs/catalog';
import { GatewayRegistry } from '@pcs/gateways';
import {
  asMerchantId,
  currencyExponent,
  decimalTextToScaledInteger,
  DomainError,
  isCurrency,
  isLocalDate,
  localDateOf,
  MerchantId,
  scaledIntegerToDecimal,
  wireAmount,
} from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { reconciliationRunRepresentation, ReconciliationRunsService } from '@pcs/processor-reports';
import {
  BalancesService,
  Bank,
  BankFileError,
  batchFileName,
  Payout,
  PayoutBatchesService,
  PayoutBatchRecord,
  payoutRepresentation,
  PayoutsService,
  PricingError,
  pricingRepresentation,
  PricingService,
  SettlementDailyService,
} from '@pcs/settlement';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { Command, dashboard, Options, UsageError } from './admin-commands';
import { actorOf, PLATFORM_AUDIT_BUSINESS } from './operator-actor';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function text(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

/**
 * An option that is a decimal number (contract §28), read as `balance:adjust` reads amounts: digits,
 * at most `decimals` after a point, a minus sign only where `signed`; hexadecimal, exponents and
 * signs where none belongs are refused naming the option. The scaled integer (minor units, basis points).
 */
function decimal(options: Options, name: string, decimals: number, signed = false): number {
  const value = decimalTextToScaledInteger(text(options, name), decimals, { signed });
  if (value === null)
    throw new UsageError(
      `--${name} must be a ${signed ? '' : 'non-negative '}decimal number with at most ${decimals} decimals (digits and a point${signed ? ', a leading - for a negative one' : ''})`,
    );
  return value;
}

function id(options: Options, name: string): string {
  const value = text(options, name);
  if (!UUID.test(value)) throw new UsageError(`--${name} must be a UUID`);
  return value.toLowerCase();
}

async function merchantOf(app: INestApplicationContext, options: Options): Promise<{ merchantId: MerchantId; businessId: string }> {
  const merchantId = asMerchantId(id(options, 'merchant'));
  const merchant = await app.get(MerchantService).findById(merchantId);
  if (!merchant || merchant.deletedAt !== null) throw new UsageError('no merchant has that id');
  return { merchantId, businessId: merchant.businessId };
}

/**
 * The operator's commands that move money or change its terms land in the
 * audit log with `operator` as their actor (contract §19, §22), whether they
 * succeeded or were refused.
 */
async function audited<T>(
  app: INestApplicationContext,
  entry: { businessId: string | null; action: string; target: string; detail: Record<string, unknown> },
  run: () => Promise<T>,
): Promise<T> {
  const identity = dashboard(app);
  const record = (result: 'succeeded' | 'refused' | 'failed', extra: Record<string, unknown> = {}) =>
    entry.businessId
      ? identity.audit({
          businessId: entry.businessId,
          userId: null,
          email: actorOf(app),
          action: entry.action,
          target: entry.target,
          result,
          detail: { ...entry.detail, ...extra },
        })
      : Promise.resolve();
  try {
    const result = await run();
    await record('succeeded');
    return result;
  } catch (error) {
    const refused = error instanceof UsageError || error instanceof DomainError || error instanceof PricingError;
    await record(refused ? 'refused' : 'failed', { error: (error as Error).message.slice(0, 200) });
    if (error instanceof PricingError) throw new UsageError(error.message);
    if (error instanceof DomainError) throw new UsageError(error.texts().EN);
    throw error;
  }
}

/** An operator's action on one business's money, in its audit log (actor `operator`). */
async function auditOperator(
  app: INestApplicationContext,
  businessId: string,
  action: string,
  target: string,
  result: 'succeeded' | 'refused' | 'failed',
  detail: Record<string, unknown>,
): Promise<void> {
  await dashboard(app).audit({ businessId, userId: null, email: actorOf(app), action, target, result, detail });
}

/**
 * A batch's files in `dir`, each written to `<name>.partial` then renamed, so
 * that a file of the final name is always whole. `fresh`: a stale partial
 * file (a crash's) is removed first. The paths written.
 */
function writeBatchFiles(dir: string, batch: PayoutBatchRecord, bank: Bank, options: { fresh: boolean }): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const [kind, content] of [
    ['csv', batch.csv],
    ['cnab240', batch.cnab240],
  ] as const) {
    if (content === null) continue;
    const file = path.join(dir, batchFileName(batch, bank, kind));
    const partial = `${file}.partial`;
    if (options.fresh) fs.rmSync(partial, { force: true });
    fs.writeFileSync(partial, content, { encoding: 'utf8', mode: 0o600 });
    fs.renameSync(partial, file);
    files.push(file);
  }
  return files;
}

async function payoutOf(app: INestApplicationContext, payout: Payout) {
  return payoutRepresentation(payout, await app.get(PayoutsService).bankOf(payout.snapshot().destination.bankId));
}

async function businessOfPayout(app: INestApplicationContext, payoutId: string): Promise<string | null> {
  const [row] = await app
    .get<DataSource>(getDataSourceToken())
    .query<{ business_id: string }[]>(`SELECT business_id FROM payout WHERE payout_id = $1`, [payoutId]);
  if (!row) throw new UsageError('no payout has that id');
  return row.business_id;
}

/** Money after the collection (contract §19): each prints one JSON object. */
export const SETTLEMENT_COMMANDS: Record<string, Command> = {
  'pricing:set': {
    usage:
      'pricing:set --merchant <merchantId> --country-processor <merchantCountryProcessorId> --percentage <0-20> [--fixed <amount> --currency <c>] [--settlement-delay-days <n>]',
    run: async (app, o) => {
      const { merchantId, businessId } = await merchantOf(app, o);
      const relationship = id(o, 'country-processor');
      const percentage = scaledIntegerToDecimal(decimal(o, 'percentage', 2), 2);
      if ((o.fixed === undefined) !== (o.currency === undefined)) throw new UsageError('--fixed and --currency go together');
      const currency = o.currency === undefined ? undefined : text(o, 'currency').toUpperCase();
      if (currency !== undefined && !isCurrency(currency)) throw new UsageError('--currency must be a supported currency');
      const fixed =
        currency === undefined
          ? undefined
          : { currency, amount: scaledIntegerToDecimal(decimal(o, 'fixed', currencyExponent(currency)), currencyExponent(currency)) };
      const delay = o['settlement-delay-days'] === undefined ? undefined : decimal(o, 'settlement-delay-days', 0);
      const change = { percentage, fixed, settlementDelayDays: delay };
      return audited(app, { businessId, action: 'pricing:set', target: relationship, detail: { merchantId, ...change } }, async () => {
        const set = await app.get(PricingService).set(merchantId, relationship, change);
        return {
          merchantId,
          merchantCountryProcessorId: relationship,
          countryProcessorId: set.countryProcessorId,
          pricing: pricingRepresentation(set.price),
        };
      });
    },
  },
  'pricing:dispute-fee': {
    usage:
      'pricing:dispute-fee --processor SANDBOX|MERCADO_PAGO|DLOCAL --currency <c> --amount <fee>   # what each dispute there costs (contract §24)',
    run: async (app, o) => {
      const processor = text(o, 'processor').toUpperCase();
      const currency = text(o, 'currency').toUpperCase();
      if (!isCurrency(currency)) throw new UsageError('--currency must be a supported currency');
      const amount = scaledIntegerToDecimal(decimal(o, 'amount', currencyExponent(currency)), currencyExponent(currency));
      try {
        const minor = await app.get(PricingService).setDisputeFee(processor, currency, amount);
        return { processor, currency, disputeFee: wireAmount(minor, currency) };
      } catch (error) {
        if (error instanceof PricingError) throw new UsageError(error.message);
        throw error;
      }
    },
  },
  'balance:adjust': {
    usage: 'balance:adjust --merchant <merchantId> --currency <c> --amount=<signed amount> --reason <text>',
    run: async (app, o) => {
      const { merchantId, businessId } = await merchantOf(app, o);
      const currency = text(o, 'currency').toUpperCase();
      if (!isCurrency(currency)) throw new UsageError('--currency must be a supported currency');
      const amountText = text(o, 'amount');
      const minor = decimalTextToScaledInteger(amountText, currencyExponent(currency), { signed: true });
      if (minor === null || minor === 0)
        throw new UsageError(
          `--amount must be a non-zero amount with at most ${currencyExponent(currency)} decimals (negative: --amount=-2.25)`,
        );
      const reason = text(o, 'reason');
      return audited(
        app,
        { businessId, action: 'balance:adjust', target: merchantId, detail: { currency, amount: amountText, reason } },
        async () => {
          const t = await app.get(BalancesService).adjust(merchantId, businessId, currency, minor, reason);
          return {
            balanceTransactionId: t.balanceTransactionId,
            merchantId,
            currency,
            type: t.type,
            amount: wireAmount(t.amount, currency),
            net: wireAmount(t.net, currency),
            description: t.description,
            createdAt: t.createdAt.toISOString(),
          };
        },
      );
    },
  },
  'payouts:export': {
    usage:
      'payouts:export --bank <bankId> [--business <businessId>] [--out <directory>]  |  payouts:export --batch <batchId> [--out <directory>]',
    run: async (app, o, where) => {
      const batches = app.get(PayoutBatchesService);
      const dir = path.resolve(typeof o.out === 'string' ? o.out : path.join(where.env.dataDir, 'payouts'));
      if (o.batch !== undefined) {
        // A batch recorded before: its files again, byte for byte (after a crash between the record and the files).
        const batchId = id(o, 'batch');
        const batch = await batches.find(batchId);
        if (!batch) throw new UsageError('no batch has that id');
        const bank = (await batches.bank(batch.bankId))!;
        const files = writeBatchFiles(dir, batch, bank, { fresh: true });
        await batches.markWritten(batchId);
        await auditOperator(app, batch.businessId, 'payouts:export', batchId, 'succeeded', { again: true, files: files.length });
        return { batchId, bankId: batch.bankId, businessId: batch.businessId, sequence: batch.sequence, files, written: 'again' };
      }
      const bankId = id(o, 'bank');
      const businessId = o.business === undefined ? undefined : id(o, 'business');
      let recorded: PayoutBatchRecord[];
      try {
        recorded = await batches.export(bankId, { businessId });
      } catch (error) {
        if (error instanceof BankFileError) {
          if (businessId) await auditOperator(app, businessId, 'payouts:export', bankId, 'refused', { error: error.message });
          throw new UsageError(error.message);
        }
        throw error;
      }
      const bank = (await batches.bank(bankId))!;
      const out = [];
      for (const batch of recorded) {
        const summary = {
          batchId: batch.batchId,
          businessId: batch.businessId,
          sequence: batch.sequence,
          payouts: batch.payoutCount,
          totals: batch.totals.map((t) => ({ currency: t.currency, amount: wireAmount(t.amount, t.currency) })),
          sha256: { csv: batch.csvSha256, cnab240: batch.cnab240Sha256 },
        };
        // Audited once recorded: the batch exists whatever happens to its files from here.
        await auditOperator(app, batch.businessId, 'payouts:export', batch.batchId, 'succeeded', { bankId, ...summary });
        const files = writeBatchFiles(dir, batch, bank, { fresh: false });
        await batches.markWritten(batch.batchId);
        out.push({ ...summary, files });
      }
      return { bankId, batches: out };
    },
  },
  'payouts:debtor-account:set': {
    usage:
      'payouts:debtor-account:set --business <businessId> --bank <bankId> --document <CNPJ> --name <company name> --account <branch/account-digit> [--agreement <convênio>]',
    run: async (app, o) => {
      const businessId = id(o, 'business');
      const input = {
        businessId,
        bankId: id(o, 'bank'),
        document: text(o, 'document'),
        name: text(o, 'name'),
        account: text(o, 'account'),
        agreement: typeof o.agreement === 'string' ? o.agreement : undefined,
      };
      return audited(
        app,
        { businessId, action: 'payouts:debtor-account:set', target: businessId, detail: { bankId: input.bankId, account: input.account } },
        async () => {
          try {
            const account = await app.get(PayoutBatchesService).setDebtor(input);
            return { ...account, updatedAt: account.updatedAt.toISOString() };
          } catch (error) {
            if (error instanceof BankFileError) throw new UsageError(error.message);
            throw error;
          }
        },
      );
    },
  },
  'payout:mark-paid': {
    usage: 'payout:mark-paid --payout <payoutId> --bank-reference <reference>',
    run: async (app, o) => {
      const payoutId = id(o, 'payout');
      const reference = text(o, 'bank-reference').slice(0, 128);
      return audited(
        app,
        {
          businessId: await businessOfPayout(app, payoutId),
          action: 'payout:mark-paid',
          target: payoutId,
          detail: { bankReference: reference },
        },
        async () => payoutOf(app, await app.get(PayoutsService).markPaid(payoutId, reference)),
      );
    },
  },
  'payout:mark-failed': {
    usage: 'payout:mark-failed --payout <payoutId> --reason <text>',
    run: async (app, o) => {
      const payoutId = id(o, 'payout');
      const reason = text(o, 'reason');
      return audited(
        app,
        { businessId: await businessOfPayout(app, payoutId), action: 'payout:mark-failed', target: payoutId, detail: { reason } },
        async () => payoutOf(app, await app.get(PayoutsService).markFailed(payoutId, reason)),
      );
    },
  },
  'payout:mark-returned': {
    usage: 'payout:mark-returned --payout <payoutId> --reason <text>',
    run: async (app, o) => {
      const payoutId = id(o, 'payout');
      const reason = text(o, 'reason');
      return audited(
        app,
        { businessId: await businessOfPayout(app, payoutId), action: 'payout:mark-returned', target: payoutId, detail: { reason } },
        async () => payoutOf(app, await app.get(PayoutsService).markReturned(payoutId, reason)),
      );
    },
  },
  reconcile: {
    usage:
      'reconcile --merchant <merchantId> --from <YYYY-MM-DD> --to <YYYY-MM-DD>   # Mercado Pago’s release report of those days\n' +
      '       reconcile --merchant <merchantId> --processor DLOCAL [--date <YYYY-MM-DD>]   # dLocal: its payments looked up (contract §28)',
    run: async (app, o) => {
      const { merchantId, businessId } = await merchantOf(app, o);
      // The processors with reports (read for a window), then those checked by lookups (one day), as they registered.
      const registry = app.get(GatewayRegistry);
      const reported = registry.processorReports().map((reports) => reports.provider);
      const lookedUp = registry.processorLookups().map((lookups) => lookups.provider);
      const known = [...reported, ...lookedUp];
      const processor = o.processor === undefined ? known[0] : text(o, 'processor').toUpperCase();
      if (!known.includes(processor)) throw new UsageError(`--processor must be ${known.join(' or ')}`);
      let from: string;
      let to: string;
      if (lookedUp.includes(processor)) {
        // Lookups of the day: each payment once a day (today in the merchant's country, unless a date is given).
        const merchant = (await app.get(MerchantService).findById(merchantId))!;
        const { timeZone } = (await app.get(CatalogService).findCountryById(merchant.countryId))!;
        from = to = o.date === undefined ? localDateOf(new Date(), timeZone) : text(o, 'date');
      } else {
        from = text(o, 'from');
        to = text(o, 'to');
      }
      if (!isLocalDate(from) || !isLocalDate(to) || from > to)
        throw new UsageError('--from and --to (or --date) are dates (YYYY-MM-DD), --from not after --to');
      return audited(app, { businessId, action: 'reconcile', target: merchantId, detail: { processor, from, to } }, async () =>
        reconciliationRunRepresentation(await app.get(ReconciliationRunsService).run(merchantId, from, to, processor)),
      );
    },
  },
  'settlement:run': {
    usage: 'settlement:run --country URY|ARG|BRA [--date <YYYY-MM-DD>] [--merchant <merchantId>]',
    run: async (app, o) => {
      const country = text(o, 'country').toUpperCase();
      if (!['URY', 'ARG', 'BRA'].includes(country)) throw new UsageError('--country must be URY, ARG or BRA');
      const { timeZone } = (await app.get(CatalogService).findCountryByIso3(country))!;
      // Today in the country, unless a date is given (a day the service was down for, say).
      const date = o.date === undefined ? localDateOf(new Date(), timeZone) : text(o, 'date');
      if (!isLocalDate(date)) throw new UsageError('--date must be a date (YYYY-MM-DD)');
      const merchant = o.merchant === undefined ? undefined : await merchantOf(app, o);
      // A whole country's run touches many businesses: the platform's own audit log (contract §27).
      return audited(
        app,
        {
          businessId: merchant?.businessId ?? PLATFORM_AUDIT_BUSINESS,
          action: 'settlement:run',
          target: merchant?.merchantId ?? country,
          detail: { country, date },
        },
        async () => ({
          country,
          date,
          ...(await app.get(SettlementDailyService).run(country, date, { merchantIds: merchant ? [merchant.merchantId] : undefined })),
        }),
      );
    },
  },
};
