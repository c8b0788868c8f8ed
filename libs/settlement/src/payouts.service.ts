/*
 * Why one file: payouts requested, scheduled, dispatched and answered by their rail: every path moves the same
 * balance under the same locks.
 */
/**
 * Payouts (contract §19): request, schedule, the rails' answers and failure.
 * Over 300 lines because a payout's life is one state machine across the
 * balance it sweeps: every transition takes the same balance lock and writes
 * its balance transaction in the same transaction, and reads best as one.
 */
import { Injectable, Logger } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import { RuntimeSettings } from '@pcs/config';
import { JobQueue } from '@pcs/jobs';
import {
  asBusinessId,
  Caller,
  Currency,
  DomainError,
  MerchantId,
  Money,
  moneyFromWire,
  Page,
  PageRequest,
  scopeCovers,
  tenantScope,
  Transaction,
  UnitOfWork,
  wireAmount,
} from '@pcs/kernel';
import { MerchantService, PayoutSchedule } from '@pcs/merchants';
import * as crypto from 'node:crypto';
import { BusinessCalendar, CountryCalendar, LocalDate } from './domain/business-calendar';
import { calendarOf } from './domain/country-calendar';
import { Payout, PayoutOrigin } from './domain/payout';
import { Bank, isOnHold, paidTo, SettlementAccount } from './domain/settlement-account';
import { BankFilePayoutRail, NotCarried, PayoutRail, SandboxPayoutRail } from './rails/payout-rail';
import { PayoutNotices } from './payout-notices';
import { BalanceRepository, PayoutFilters, PayoutRepository, SettlementAccountRepository } from './settlement.repository';
import { BalancesService } from './balances.service';
import { SettlementEvents } from './settlement-events';

interface PayoutJob {
  readonly payoutId: string;
  /** dispatch: hand it to its rail; settle: the rail's own answer (sandbox). */
  readonly step: 'dispatch' | 'settle';
}

export interface PayoutQuery extends PayoutFilters {
  readonly merchantId?: MerchantId;
}

/** A scheduled payout that was not made, and why (nothing available, below the minimum, already made today). */
export type ScheduledOutcome = { readonly made: Payout } | { readonly skipped: string };

/**
 * Payouts (contracts §19, §24): the merchant's available money to its
 * settlement account in the currency, on request or on its schedule.
 *
 * A payout is made in one transaction that holds the merchant's balance in
 * that currency (an advisory lock: concurrent payouts queue, so the same
 * money is never paid twice): one statement reads the available balance from
 * the figures and sweeps what the payout covers (every available transaction
 * no payout holds, or for an amount the oldest whose whole net it covers), so
 * a payin committed meanwhile is counted and swept or neither; then the
 * payout, in transit on its rail at once, its PAYOUT balance transaction
 * (−amount), its events and its rail's job. A kill at any point leaves the
 * whole payout or nothing. A payout that fails, is canceled or is returned
 * gives its amount back and releases what it swept. Refunds are not held:
 * one racing a payout only moves the available balance below zero, and the
 * next payout nets it.
 */
@Injectable()
export class PayoutsService {
  private readonly logger = new Logger('Payouts');
  private readonly rails: ReadonlyMap<string, PayoutRail>;

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly merchants: MerchantService,
    private readonly catalog: CatalogService,
    private readonly accounts: SettlementAccountRepository,
    private readonly balances: BalanceRepository,
    private readonly balanceReads: BalancesService,
    private readonly payouts: PayoutRepository,
    private readonly announce: SettlementEvents,
    private readonly jobs: JobQueue,
    private readonly calendar: BusinessCalendar,
    private readonly settings: RuntimeSettings,
    private readonly notices: PayoutNotices,
  ) {
    const rails: PayoutRail[] = [new SandboxPayoutRail(settings.settlement.sandboxPayoutDelaySeconds), new BankFilePayoutRail()];
    this.rails = new Map(rails.map((rail) => [rail.name, rail]));
  }

  /**
   * A payout on request: the whole available balance, or `amount` (a wire
   * decimal) of it. Errors in the contract's order: no account 409, a bad or
   * too large amount 400, nothing available 409. `operationId` (from the
   * Idempotency-Key) names the payout: a retry finds it instead of paying again.
   */
  async request(caller: Caller, merchantId: MerchantId, currency: Currency, amount?: number, operationId?: string): Promise<Payout> {
    const merchant = (await this.merchants.load(caller, merchantId)).snapshot();
    const payoutId = operationId ?? crypto.randomUUID();
    return this.unitOfWork.run(async (tx) => {
      await this.payouts.holdBalance(tx, merchant.merchantId, currency);
      const earlier = await this.payouts.find(tx, payoutId);
      if (earlier) return earlier;
      const account = await this.accounts.find(tx, merchant.merchantId, currency);
      if (!account) throw new DomainError('SETTLEMENT_ACCOUNT_MISSING', undefined, { currency });
      // A currency its bank's rail cannot carry (contract §28): for good, unlike a hold, so said first.
      const notCarried = this.rail().notCarried(currency, account.bank);
      if (notCarried) throw new DomainError('PAYOUT_CURRENCY_NOT_SUPPORTED', undefined, { currency, ...notCarried });
      if (isOnHold(account, new Date()))
        throw new DomainError('SETTLEMENT_ACCOUNT_ON_HOLD', undefined, { currency, holdUntil: account.holdUntil!.toISOString() });
      if (account.returnedPayoutId)
        throw new DomainError('SETTLEMENT_ACCOUNT_RETURNED', undefined, { currency, returnedPayoutId: account.returnedPayoutId });
      const requested = amount === undefined ? null : moneyFromWire('amount', amount, currency).minor;
      const claim = await this.balances.claim(tx, {
        merchantId: merchant.merchantId,
        currency,
        payoutId,
        amount: requested,
        minimum: 0,
      });
      if (!claim.claimed && requested !== null)
        throw new DomainError('PAYOUT_AMOUNT_EXCEEDS_AVAILABLE', undefined, { available: wireAmount(claim.available, currency), currency });
      if (!claim.claimed)
        throw new DomainError('NOTHING_TO_PAY_OUT', undefined, { available: wireAmount(claim.available, currency), currency });
      return this.make(tx, {
        payoutId,
        account,
        amount: requested ?? claim.available,
        transactionCount: claim.swept,
        origin: 'REQUESTED',
        scheduledFor: null,
      });
    });
  }

  /**
   * The scheduled payout of an account's whole available balance on a local
   * day: made once per merchant, currency and day (a retried run finds it),
   * and only when the balance reaches the schedule's minimum. An account on
   * hold (contract §24) makes it wait: the day is noted, and the first run
   * after the hold makes it.
   */
  async payScheduled(account: SettlementAccount, schedule: PayoutSchedule, day: LocalDate): Promise<ScheduledOutcome> {
    const merchantId = account.merchantId as MerchantId;
    return this.unitOfWork.run(async (tx) => {
      await this.payouts.holdBalance(tx, merchantId, account.currency);
      if (await this.payouts.scheduledExists(tx, merchantId, account.currency, day)) return { skipped: 'already paid out today' };
      const current = await this.accounts.find(tx, merchantId, account.currency);
      if (!current) return { skipped: 'no settlement account' };
      // A currency the account's bank rail cannot carry (contract §28): the payout waits, and the admins are told once.
      const notCarried = this.rail().notCarried(current.currency, current.bank);
      if (notCarried) {
        await this.accounts.notePayoutWaiting(tx, current.settlementAccountId, day);
        if (current.payoutWaitingSince === null) await this.tellCurrencyWaits(tx, current, notCarried);
        return { skipped: notCarried.reason };
      }
      if (isOnHold(current, new Date())) {
        await this.accounts.notePayoutWaiting(tx, current.settlementAccountId, day);
        return { skipped: `the settlement account is on hold until ${current.holdUntil!.toISOString()}` };
      }
      if (current.returnedPayoutId) {
        await this.accounts.notePayoutWaiting(tx, current.settlementAccountId, day);
        return { skipped: `a bank returned payout ${current.returnedPayoutId} from the settlement account` };
      }
      if (current.payoutWaitingSince) await this.accounts.notePayoutWaiting(tx, current.settlementAccountId, null);
      const payoutId = crypto.randomUUID();
      const minimum = schedule.minimumAmount[current.currency] ?? 0;
      const claim = await this.balances.claim(tx, { merchantId, currency: current.currency, payoutId, amount: null, minimum });
      if (!claim.claimed) return { skipped: claim.available <= 0 ? 'nothing available' : 'below the minimum' };
      return {
        made: await this.make(tx, {
          payoutId,
          account: current,
          amount: claim.available,
          transactionCount: claim.swept,
          origin: 'SCHEDULED',
          scheduledFor: day,
        }),
      };
    });
  }

  async get(caller: Caller, payoutId: string): Promise<Payout> {
    const payout = await this.payouts.find(this.unitOfWork.outside, payoutId);
    if (!payout || !(await this.visible(caller, payout))) throw new DomainError('PAYOUT_NOT_FOUND');
    return payout;
  }

  async list(caller: Caller, query: PayoutQuery, page: PageRequest): Promise<Page<Payout>> {
    return this.payouts.list(this.unitOfWork.outside, await this.balanceReads.scopeOf(caller, query.merchantId), query, page);
  }

  /** Cancels a payout that has not left (waiting unexported in a bank file): its amount comes back to available, and what it swept is free. */
  async cancel(caller: Caller, payoutId: string): Promise<Payout> {
    return this.unitOfWork.run(async (tx) => {
      const payout = await this.payouts.find(tx, payoutId, true);
      if (!payout || !(await this.visible(caller, payout, tx))) throw new DomainError('PAYOUT_NOT_FOUND');
      payout.cancel(new Date());
      await this.giveBack(tx, payout, 'payout canceled');
      return payout;
    });
  }

  /**
   * Hands a payout made PENDING to its rail (the payout worker). Payouts are
   * in transit from the transaction that makes them (contract §24); this
   * moves one left PENDING by an earlier version, whose job still runs.
   */
  async dispatch(payoutId: string): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const payout = await this.payouts.find(tx, payoutId, true);
      if (!payout || payout.status !== 'PENDING') return;
      await this.depart(tx, payout, new Date());
      await this.save(tx, payout);
    });
  }

  /** A rail's own answer (the sandbox's, after its delay). */
  async settle(payoutId: string): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const payout = await this.payouts.find(tx, payoutId, true);
      if (!payout || payout.status !== 'IN_TRANSIT') return;
      const p = payout.snapshot();
      const outcome = this.railOf(p.rail).outcome(p);
      const now = new Date();
      if (outcome.paid) {
        payout.markPaid(now, p.arrivalDate ?? this.today(await this.countryOf(p.merchantId), now), outcome.bankReference);
        await this.save(tx, payout);
      } else {
        payout.fail(now, outcome.reason);
        await this.giveBack(tx, payout, `payout failed: ${outcome.reason}`);
      }
    });
  }

  /** The operator records the bank's credit (`payout:mark-paid`): the arrival date is today, in the merchant's country. */
  async markPaid(payoutId: string, bankReference: string): Promise<Payout> {
    return this.unitOfWork.run(async (tx) => {
      const payout = await this.payouts.find(tx, payoutId, true);
      if (!payout) throw new DomainError('PAYOUT_NOT_FOUND');
      const now = new Date();
      if (!payout.markPaid(now, this.today(await this.countryOf(payout.snapshot().merchantId), now), bankReference))
        throw new DomainError('PAYOUT_INVALID_STATE', `only a payout IN_TRANSIT can be marked paid; this one is ${payout.status}`, {
          status: payout.status,
        });
      await this.save(tx, payout);
      return payout;
    });
  }

  /** The operator records the bank's refusal (`payout:mark-failed`): its amount comes back to available. */
  async markFailed(payoutId: string, reason: string): Promise<Payout> {
    return this.unitOfWork.run(async (tx) => {
      const payout = await this.payouts.find(tx, payoutId, true);
      if (!payout) throw new DomainError('PAYOUT_NOT_FOUND');
      if (!payout.fail(new Date(), reason))
        throw new DomainError('PAYOUT_INVALID_STATE', `a payout ${payout.status} cannot be marked failed`, { status: payout.status });
      await this.giveBack(tx, payout, `payout failed: ${reason}`);
      return payout;
    });
  }

  /** The operator records a bank's return of a paid payout (`payout:mark-returned`): RETURNED, its amount back in available. */
  async markReturned(payoutId: string, reason: string): Promise<Payout> {
    return this.unitOfWork.run(async (tx) => {
      const payout = await this.payouts.find(tx, payoutId, true);
      if (!payout) throw new DomainError('PAYOUT_NOT_FOUND');
      if (!payout.markReturned(new Date(), reason))
        throw new DomainError('PAYOUT_INVALID_STATE', `only a PAID payout can be returned; this one is ${payout.status}`, {
          status: payout.status,
        });
      await this.giveBack(tx, payout, `payout returned: ${reason}`);
      // The account the bank gave it back from takes no payout until it is changed or an admin confirms it
      // (a closed account would only return the next one too); an account changed since is not that account.
      const { merchantId, currency, destination } = payout.snapshot();
      await this.accounts.holdAccounts(tx, merchantId);
      const account = await this.accounts.find(tx, merchantId, currency);
      if (account && paidTo(account, destination)) await this.accounts.noteReturned(tx, account.settlementAccountId, payoutId, new Date());
      return payout;
    });
  }

  /** The business's dashboard admins who see the merchant learn that its scheduled payouts in a currency wait, and why. */
  private async tellCurrencyWaits(tx: Transaction, account: SettlementAccount, why: NonNullable<NotCarried>): Promise<void> {
    const merchant = await this.merchants.findById(account.merchantId as MerchantId, tx);
    if (merchant) await this.notices.currencyWaits(tx, account, merchant.merchantName, why);
  }

  /** The rail new payouts leave by (the deployment's). */
  private rail(): PayoutRail {
    return this.railOf(this.settings.settlement.payoutRail);
  }

  /** The bank a payout goes to. */
  bankOf(bankId: string): Promise<Bank | null> {
    return this.accounts.bank(this.unitOfWork.outside, bankId);
  }

  /**
   * Writes a payout whose claim was taken (its transactions swept): its
   * PAYOUT balance transaction (−amount), in transit on its rail at once
   * (contract §24: nobody sees it PENDING), its events, and the rail's job.
   */
  private async make(
    tx: Transaction,
    input: {
      payoutId: string;
      account: SettlementAccount;
      amount: number;
      transactionCount: number;
      origin: PayoutOrigin;
      scheduledFor: LocalDate | null;
    },
  ): Promise<Payout> {
    const { account } = input;
    const merchantId = account.merchantId as MerchantId;
    const now = new Date();
    const payout = Payout.create({
      payoutId: input.payoutId,
      businessId: asBusinessId(account.businessId),
      merchantId,
      currency: account.currency,
      amount: input.amount,
      rail: this.settings.settlement.payoutRail,
      origin: input.origin,
      destination: {
        settlementAccountId: account.settlementAccountId,
        bankId: account.bank.bankId,
        accountNumber: account.accountNumber,
        accountType: account.accountType,
        holderDocument: account.holderDocument,
      },
      transactionCount: input.transactionCount,
      scheduledFor: input.scheduledFor,
      createdAt: now,
    });
    await this.depart(tx, payout, now);
    await this.payouts.insert(tx, payout);
    await this.balances.record(tx, [
      {
        balanceTransactionId: crypto.randomUUID(),
        businessId: account.businessId,
        merchantId,
        currency: account.currency,
        type: 'PAYOUT',
        amount: -input.amount,
        fee: 0,
        availableOn: null,
        sourceId: input.payoutId,
        payoutId: input.payoutId,
        description: `payout to ${account.bank.name}`,
      },
    ]);
    await this.announce.payoutChanged(tx, payout);
    this.logger.log(
      `payout ${input.payoutId} of ${Money.ofMinor(input.amount, account.currency).toWire()} ${account.currency} made (${input.origin})`,
    );
    return payout;
  }

  /** Puts a payout on its rail: in transit, with the rail's arrival date, and the job of the rail's own answer when it gives one. */
  private async depart(tx: Transaction, payout: Payout, now: Date): Promise<void> {
    const p = payout.snapshot();
    const departure = this.railOf(p.rail).depart(p, await this.countryOf(p.merchantId), now, this.calendar);
    payout.markInTransit(now, departure.arrivalDate);
    if (departure.settleAfterSeconds !== null)
      await this.jobs.send(tx, this.settings.settlement.payoutQueue, { payoutId: p.payoutId, step: 'settle' } satisfies PayoutJob, {
        startAfter: departure.settleAfterSeconds,
        retryLimit: 20,
        retryDelay: 5,
        retryBackoff: true,
      });
  }

  /**
   * A failed, canceled or returned payout's amount back in available
   * (contract §24): PAYOUT_FAILURE of +amount, once, carrying the payout's
   * own id (the pair nets inside it), and what it swept released for the
   * next payout — under the balance lock, as a payout's claim.
   */
  private async giveBack(tx: Transaction, payout: Payout, description: string): Promise<void> {
    const p = payout.snapshot();
    await this.payouts.holdBalance(tx, p.merchantId, p.currency);
    await this.save(tx, payout);
    await this.balances.record(tx, [
      {
        balanceTransactionId: crypto.randomUUID(),
        businessId: p.businessId,
        merchantId: p.merchantId,
        currency: p.currency,
        type: 'PAYOUT_FAILURE',
        amount: p.amount,
        fee: 0,
        availableOn: null,
        sourceId: p.payoutId,
        payoutId: p.payoutId,
        description,
      },
    ]);
    await this.balances.release(tx, p.payoutId);
  }

  private async save(tx: Transaction, payout: Payout): Promise<void> {
    await this.payouts.save(tx, payout);
    await this.announce.payoutChanged(tx, payout);
  }

  private async visible(caller: Caller, payout: Payout, tx: Transaction = this.unitOfWork.outside): Promise<boolean> {
    const p = payout.snapshot();
    if (!scopeCovers(tenantScope(caller), p)) return false;
    // A deleted merchant's payouts leave the API with it (its records stay).
    const merchant = await this.merchants.findById(p.merchantId, tx);
    return merchant !== null && merchant.deletedAt === null;
  }

  private railOf(name: string): PayoutRail {
    const rail = this.rails.get(name);
    if (!rail) throw new Error(`no payout rail ${name}`);
    return rail;
  }

  private async countryOf(merchantId: MerchantId): Promise<CountryCalendar> {
    const merchant = await this.merchants.findById(merchantId);
    const country = merchant && (await this.catalog.findCountryById(merchant.countryId));
    if (!country) throw new Error(`merchant ${merchantId} has no country`);
    return calendarOf(country);
  }

  private today(country: CountryCalendar, now: Date): LocalDate {
    return this.calendar.localDate(now, country.timeZone);
  }
}
