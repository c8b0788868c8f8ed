import { INestApplicationContext } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { CatalogService } from '@pcs/catalog';
import {
  asMerchantId,
  currencyExponent,
  decimalToScaledInteger,
  DomainError,
  isCurrency,
  isLocalDate,
  localDateOf,
  MerchantId,
  wireAmount,
} from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { reconciliationRunRepresentation, ReconciliationRunsService } from '@pcs/processor-reports';
import { csvLine } from '@pcs/pages';
import {
  BalancesService,
  Payout,
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
import { dashboard, Options, UsageError } from './admin-commands';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function text(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
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
          email: 'operator',
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
export const SETTLEMENT_COMMANDS: Record<
  string,
  { usage: string; run: (app: INestApplicationContext, options: Options) => Promise<object> }
> = {
  'pricing:set': {
    usage:
      'pricing:set --merchant <merchantId> --country-processor <merchantCountryProcessorId> --percentage <0-20> [--fixed <amount> --currency <c>] [--settlement-delay-days <n>]',
    run: async (app, o) => {
      const { merchantId, businessId } = await merchantOf(app, o);
      const relationship = id(o, 'country-processor');
      const percentage = Number(text(o, 'percentage'));
      if ((o.fixed === undefined) !== (o.currency === undefined)) throw new UsageError('--fixed and --currency go together');
      const currency = o.currency === undefined ? undefined : text(o, 'currency').toUpperCase();
      if (currency !== undefined && !isCurrency(currency)) throw new UsageError('--currency must be a supported currency');
      const fixed = currency === undefined ? undefined : { currency, amount: Number(text(o, 'fixed')) };
      if (fixed && !Number.isFinite(fixed.amount)) throw new UsageError('--fixed must be an amount');
      const delay = o['settlement-delay-days'] === undefined ? undefined : Number(text(o, 'settlement-delay-days'));
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
  'balance:adjust': {
    usage: 'balance:adjust --merchant <merchantId> --currency <c> --amount=<signed amount> --reason <text>',
    run: async (app, o) => {
      const { merchantId, businessId } = await merchantOf(app, o);
      const currency = text(o, 'currency').toUpperCase();
      if (!isCurrency(currency)) throw new UsageError('--currency must be a supported currency');
      const amountText = text(o, 'amount');
      const minor = /^-?\d+(\.\d+)?$/.test(amountText) ? decimalToScaledInteger(Number(amountText), currencyExponent(currency)) : null;
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
    usage: 'payouts:export --bank <bankId> [--out <file.csv>]',
    run: async (app, o) => {
      const bankId = id(o, 'bank');
      const payouts = app.get(PayoutsService);
      const bank = await payouts.bankOf(bankId);
      if (!bank) throw new UsageError('no bank has that id (GET /bank)');
      const dataDir = process.env.DATA_DIR ?? './.data';
      const file = path.resolve(
        typeof o.out === 'string'
          ? o.out
          : path.join(dataDir, 'payouts', `${bank.country}-${bank.code}-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`),
      );
      const totals = new Map<string, number>();
      const exported = await payouts
        .exportBatch(bankId, async (batch) => {
          const lines = [
            csvLine([
              'payoutId',
              'bankCode',
              'bankName',
              'accountType',
              'accountNumber',
              'holderDocument',
              'currency',
              'amount',
              'createdAt',
            ]),
          ];
          for (const payout of batch) {
            const p = payout.snapshot();
            totals.set(p.currency, (totals.get(p.currency) ?? 0) + p.amount);
            lines.push(
              csvLine([
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
          fs.mkdirSync(path.dirname(file), { recursive: true });
          // Written before the export commits; an export that fails after the file exists leaves the payouts waiting, and the file is removed.
          fs.writeFileSync(file, lines.join(''), { flag: 'wx', mode: 0o600 });
        })
        .catch((error: unknown) => {
          if (fs.existsSync(file) && (error as NodeJS.ErrnoException).code !== 'EEXIST') fs.rmSync(file);
          throw error;
        });
      return {
        bankId,
        file: exported.length > 0 ? file : null,
        payouts: exported.length,
        totals: [...totals].map(([currency, amount]) => ({ currency, amount: wireAmount(amount, currency as never) })),
      };
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
  reconcile: {
    usage: 'reconcile --merchant <merchantId> --from <YYYY-MM-DD> --to <YYYY-MM-DD>',
    run: async (app, o) => {
      const { merchantId } = await merchantOf(app, o);
      const from = text(o, 'from');
      const to = text(o, 'to');
      if (!isLocalDate(from) || !isLocalDate(to) || from > to)
        throw new UsageError('--from and --to are dates (YYYY-MM-DD), --from not after --to');
      return reconciliationRunRepresentation(await app.get(ReconciliationRunsService).run(merchantId, from, to));
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
      const only = o.merchant === undefined ? undefined : [(await merchantOf(app, o)).merchantId];
      return { country, date, ...(await app.get(SettlementDailyService).run(country, date, { merchantIds: only })) };
    },
  },
};
