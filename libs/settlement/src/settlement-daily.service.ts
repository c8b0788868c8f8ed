import { Injectable, Logger } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import { DailyRuns } from '@pcs/jobs';
import { MerchantId, UnitOfWork } from '@pcs/kernel';
import { MerchantConfigurationService, MerchantService } from '@pcs/merchants';
import { BusinessCalendar, LocalDate } from './domain/business-calendar';
import { calendarOf } from './domain/country-calendar';
import { isPayoutDue } from './domain/payout-due';
import { PayoutsService } from './payouts.service';
import { SettlementAccountsService } from './settlement-accounts.service';
import { BalanceRepository } from './settlement.repository';
import { SettlementEvents } from './settlement-events';

/** The local hour of a country's daily settlement run (contract §19). */
export const PAYOUT_HOUR = 6;
export const SETTLEMENT_DAILY_RUN = 'settlement';
/** Figures older than this are folded into each balance's always-available figure. */
const COMPACT_AFTER_MS = 7 * 86_400_000;

export interface DailyOptions {
  /** The moment of the run (default: now). */
  readonly now?: Date;
  /** Only these merchants (a test's own, in a database other tests share); default: every merchant of the country. */
  readonly merchantIds?: readonly MerchantId[];
}

export interface DailyReport {
  readonly payouts: string[];
  readonly skipped: number;
  readonly availableEvents: number;
  readonly failures: string[];
}

/**
 * A country's daily settlement run at 06:00 its time (contract §19): the
 * scheduled payouts of its merchants due that day, then `balance.available`
 * for each merchant and currency that had money become available since the
 * previous run, then the figures' compaction. Every step is idempotent (a
 * payout per merchant, currency and day; an event per merchant, currency and
 * day, recorded with its claim), so a retried run does nothing twice.
 */
@Injectable()
export class SettlementDailyService {
  private readonly logger = new Logger('SettlementDaily');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly catalog: CatalogService,
    private readonly merchants: MerchantService,
    private readonly configurations: MerchantConfigurationService,
    private readonly accounts: SettlementAccountsService,
    private readonly payouts: PayoutsService,
    private readonly balances: BalanceRepository,
    private readonly announce: SettlementEvents,
    private readonly calendar: BusinessCalendar,
    private readonly dailyRuns: DailyRuns,
  ) {}

  /** The countries whose runs are scheduled, in their time zones. */
  async scopes(): Promise<{ scope: string; timeZone: string }[]> {
    return (await this.catalog.listCountries()).map((country) => ({ scope: country.iso3, timeZone: country.timeZone }));
  }

  async run(countryIso3: string, day: LocalDate, options: DailyOptions = {}): Promise<DailyReport> {
    const now = options.now ?? new Date();
    const country = await this.catalog.findCountryByIso3(countryIso3);
    if (!country) throw new Error(`no country ${countryIso3}`);
    const calendar = calendarOf(country);
    const only = options.merchantIds && new Set<string>(options.merchantIds);
    const failures: string[] = [];

    // 1. Scheduled payouts of the accounts at the country's banks.
    const accounts = (await this.accounts.ofCountry(country.iso3)).filter((a) => !only || only.has(a.merchantId));
    const schedules = await this.configurations.payoutSchedules([...new Set(accounts.map((a) => a.merchantId as MerchantId))]);
    const made: string[] = [];
    let skipped = 0;
    for (const account of accounts) {
      const schedule = schedules.get(account.merchantId as MerchantId);
      // Due by the schedule, or waiting since a hold of the account, or a bank's return from it, made a due payout wait (made on the first business day after it).
      const waiting = account.payoutWaitingSince !== null && schedule?.interval !== 'MANUAL' && this.calendar.isBusinessDay(calendar, day);
      if (!schedule || !(isPayoutDue(schedule, calendar, day, this.calendar) || waiting)) continue;
      const merchant = await this.merchants.findById(account.merchantId as MerchantId);
      if (!merchant || merchant.deletedAt !== null) continue;
      try {
        const outcome = await this.payouts.payScheduled(account, schedule, day);
        if ('made' in outcome) made.push(outcome.made.id);
        else skipped += 1;
      } catch (error) {
        failures.push(`${account.merchantId} ${account.currency}: ${(error as Error).message}`);
      }
    }

    // 2. balance.available: what became available since the previous run (or the last 24 hours).
    const after = (await this.dailyRuns.previousClaim(SETTLEMENT_DAILY_RUN, country.iso3, day)) ?? new Date(now.getTime() - 86_400_000);
    let availableEvents = 0;
    for (const entry of await this.balances.becameAvailable(this.unitOfWork.outside, after, now)) {
      if (only && !only.has(entry.merchantId)) continue;
      const merchant = await this.merchants.findById(entry.merchantId);
      if (!merchant || merchant.countryId !== country.countryId) continue;
      const recorded = await this.unitOfWork.run(async (tx) => {
        if (!(await this.dailyRuns.claimOnce(tx, 'balance.available', `${entry.merchantId}:${entry.currency}`, day))) return false;
        await this.announce.balanceAvailable(tx, merchant.businessId, entry, day);
        return true;
      });
      if (recorded) availableEvents += 1;
    }

    // 3. Fewer figures to sum: those long available fold into each balance's always-available one.
    await this.balances.compact(this.unitOfWork.outside, new Date(now.getTime() - COMPACT_AFTER_MS));

    this.logger.log(`${country.iso3} ${day}: ${made.length} payout(s), ${skipped} skipped, ${availableEvents} balance.available event(s)`);
    if (failures.length > 0) throw new Error(`scheduled payouts failed (the run is retried): ${failures.join('; ')}`);
    return { payouts: made, skipped, availableEvents, failures };
  }
}
