import type { PixMandateTerms } from '@pcs/payment-instruments';
import { addDays, InvalidRequestError, LocalDate } from '@pcs/kernel';
import type { DunningSettings } from '@pcs/merchants';
import type { BillingInterval } from './billing-calendar';

/**
 * How long before its billing date a Pix Automático charge is requested (contract §31): Banco Central takes the request
 * 2 to 10 days ahead; it goes with the payer's notice, 3 days ahead (`invoice.upcoming`).
 */
export const PIX_CHARGE_LEAD_MS = 3 * 86_400_000;

/** The scheme's earliest billing date for a request made on `today` (2 days ahead). */
export const PIX_MIN_DAYS_AHEAD = 2;

/**
 * dLocal's retries of a Pix Automático charge (its "Payment retries", Banco Central's rule): 3 more attempts within 7
 * days of the billing date, one a day, each attempted the day after it is asked for: asked 1, 3 and 5 days after the
 * billing date, so each has its outcome before the next is asked. The merchant's `finalStatus` still ends dunning.
 */
export const PIX_RETRY_DAYS: readonly number[] = [1, 3, 5];

export function pixDunning(merchant: DunningSettings): DunningSettings {
  return { ...merchant, retryDays: [...PIX_RETRY_DAYS] };
}

/** The Pix Automático periodicity of a subscription's cycle, or null when the scheme has none like it. */
export function pixFrequencyOf(interval: BillingInterval, intervalCount: number): PixMandateTerms['frequency'] | null {
  if (interval === 'WEEK' && intervalCount === 1) return 'WEEKLY';
  if (interval === 'YEAR' && intervalCount === 1) return 'ANNUAL';
  if (interval !== 'MONTH') return null;
  return ({ 1: 'MONTHLY', 3: 'QUARTERLY', 6: 'SEMIANNUAL', 12: 'ANNUAL' } as const)[intervalCount as 1 | 3 | 6 | 12] ?? null;
}

/**
 * Refuses (400, the field named) a subscription whose charges its Pix Automático authorisation would not take: another
 * amount or currency (the authorisation is of a fixed amount in BRL), another periodicity, a first billing date before
 * the authorised one or sooner than the scheme's 2 days from `today` (Brasília's date).
 */
export function assertPixTerms(
  mandate: PixMandateTerms,
  subscription: { amount: number; currency: string; interval: BillingInterval; intervalCount: number; firstDate: LocalDate },
  today: LocalDate,
): void {
  if (subscription.currency !== 'BRL' || subscription.amount !== mandate.amount)
    throw new InvalidRequestError(
      ['amount'],
      `amount must be the Pix Automático authorisation’s: ${(mandate.amount / 100).toFixed(2)} BRL (a new amount needs a new authorisation)`,
    );
  if (pixFrequencyOf(subscription.interval, subscription.intervalCount) !== mandate.frequency)
    throw new InvalidRequestError(
      ['interval'],
      `interval and intervalCount must be the Pix Automático authorisation’s: ${mandate.frequency}`,
    );
  const earliest = addDays(today, PIX_MIN_DAYS_AHEAD);
  if (subscription.firstDate < mandate.startDate || subscription.firstDate < earliest)
    throw new InvalidRequestError(
      ['startDate'],
      `startDate: the first charge must be on or after ${mandate.startDate > earliest ? mandate.startDate : earliest} (the authorisation’s first date, 2 days ahead at least)`,
    );
}
