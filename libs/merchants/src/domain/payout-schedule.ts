import { Currency, CURRENCIES, DomainError, Money, MoneyError } from '@pcs/kernel';

export const PAYOUT_INTERVALS = ['MANUAL', 'DAILY', 'WEEKLY', 'MONTHLY'] as const;
export type PayoutInterval = (typeof PAYOUT_INTERVALS)[number];
export const PAYOUT_WEEKDAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'] as const;
export type PayoutWeekday = (typeof PAYOUT_WEEKDAYS)[number];

/**
 * When a merchant's available money is paid out by itself (contract §19):
 * never (MANUAL: only on request), every business day, once a week on an
 * anchor day, or once a month on an anchor date (the month's last day when
 * shorter). A scheduled payout is made only when the available balance
 * reaches the currency's minimum (minor units), when one is set.
 */
export interface PayoutSchedule {
  readonly interval: PayoutInterval;
  readonly weeklyAnchor: PayoutWeekday | null;
  readonly monthlyAnchor: number | null;
  readonly minimumAmount: Readonly<Partial<Record<Currency, number>>>;
}

export const DEFAULT_PAYOUT_SCHEDULE: PayoutSchedule = { interval: 'DAILY', weeklyAnchor: null, monthlyAnchor: null, minimumAmount: {} };

/** A schedule as the configuration request sends it: minimums are wire amounts (major units) per currency. */
export interface PayoutScheduleRequest {
  readonly interval: string;
  readonly weeklyAnchor?: string;
  readonly monthlyAnchor?: number;
  readonly minimumAmount?: Readonly<Record<string, number>>;
}

function invalid(reason: string, reasonEs: string): DomainError {
  return new DomainError('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION', reason, { reason, reasonEs });
}

/** Reads a requested schedule; an anchor of another interval, an unknown currency or a bad minimum is refused. */
export function payoutScheduleFrom(request: PayoutScheduleRequest): PayoutSchedule {
  const interval = PAYOUT_INTERVALS.find((i) => i === request.interval);
  if (!interval)
    throw invalid(
      `payoutSchedule.interval must be one of ${PAYOUT_INTERVALS.join(', ')}`,
      `payoutSchedule.interval debe ser uno de ${PAYOUT_INTERVALS.join(', ')}`,
    );
  if (request.weeklyAnchor !== undefined && interval !== 'WEEKLY')
    throw invalid(
      'payoutSchedule.weeklyAnchor applies to a WEEKLY schedule only',
      'payoutSchedule.weeklyAnchor solo corresponde a un calendario WEEKLY',
    );
  if (request.monthlyAnchor !== undefined && interval !== 'MONTHLY')
    throw invalid(
      'payoutSchedule.monthlyAnchor applies to a MONTHLY schedule only',
      'payoutSchedule.monthlyAnchor solo corresponde a un calendario MONTHLY',
    );
  const weeklyAnchor = interval === 'WEEKLY' ? (PAYOUT_WEEKDAYS.find((d) => d === (request.weeklyAnchor ?? 'MONDAY')) ?? null) : null;
  if (interval === 'WEEKLY' && !weeklyAnchor)
    throw invalid(
      'payoutSchedule.weeklyAnchor must be a weekday from MONDAY to FRIDAY',
      'payoutSchedule.weeklyAnchor debe ser un día hábil de MONDAY a FRIDAY',
    );
  const monthlyAnchor = interval === 'MONTHLY' ? (request.monthlyAnchor ?? 1) : null;
  if (monthlyAnchor !== null && (!Number.isInteger(monthlyAnchor) || monthlyAnchor < 1 || monthlyAnchor > 31))
    throw invalid(
      'payoutSchedule.monthlyAnchor must be a day of the month from 1 to 31',
      'payoutSchedule.monthlyAnchor debe ser un día del mes de 1 a 31',
    );
  const minimumAmount: Partial<Record<Currency, number>> = {};
  for (const [currency, amount] of Object.entries(request.minimumAmount ?? {})) {
    if (!(CURRENCIES as readonly string[]).includes(currency))
      throw invalid(
        `payoutSchedule.minimumAmount: ${currency} is not a supported currency`,
        `payoutSchedule.minimumAmount: ${currency} no es una moneda admitida`,
      );
    try {
      minimumAmount[currency as Currency] = Money.fromWire(amount, currency as Currency).minor;
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      throw invalid(
        `payoutSchedule.minimumAmount.${currency}: ${error.message}`,
        `payoutSchedule.minimumAmount.${currency} no es un monto válido`,
      );
    }
  }
  return { interval, weeklyAnchor, monthlyAnchor, minimumAmount };
}
