import { addDays, isLocalDate, LocalDate, localDateOf, localTimeOf } from '@pcs/kernel';

export const BILLING_INTERVALS = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/**
 * When a subscription's periods start (contract §31): `intervalCount` intervals apart from its anchor, a local
 * date and time of day in the merchant's time zone. Period n is counted from the anchor, never from period
 * n − 1, so a subscription anchored on the 31st charges on the last day of a shorter month and on the 31st
 * again after it (Jan 31, Feb 28, Mar 31), and one anchored on Feb 29 on Feb 28 of the years between leap years.
 */
export interface BillingCycle {
  readonly interval: BillingInterval;
  readonly intervalCount: number;
  readonly anchorDate: LocalDate;
  /** `HH:MM:SS`, local. */
  readonly anchorTime: string;
  readonly timeZone: string;
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The local date `months` months after `date`, on the same day or the month's last when it has fewer days. */
export function addMonths(date: LocalDate, months: number): LocalDate {
  const [year, month, day] = date.split('-').map(Number);
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  const d = Math.min(day, daysIn(y, m));
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The local date period `n` (0 first) starts on. */
export function periodDate(cycle: BillingCycle, n: number): LocalDate {
  const steps = n * cycle.intervalCount;
  switch (cycle.interval) {
    case 'DAY':
      return addDays(cycle.anchorDate, steps);
    case 'WEEK':
      return addDays(cycle.anchorDate, 7 * steps);
    case 'MONTH':
      return addMonths(cycle.anchorDate, steps);
    case 'YEAR':
      return addMonths(cycle.anchorDate, 12 * steps);
  }
}

/**
 * The instant a local date and time of day is in a time zone (the zone's offset at that moment, a change of
 * offset that day included; a time a change skips is read with the offset before it).
 */
export function instantOf(date: LocalDate, time: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute, second] = time.split(':').map(Number);
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const offset = (instant: number) => {
    const at = new Date(instant);
    const [d, t] = [localDateOf(at, timeZone), localTimeOf(at, timeZone)];
    const [ly, lm, ld] = d.split('-').map(Number);
    const [lh, lmin, ls] = t.split(':').map(Number);
    return Date.UTC(ly, lm - 1, ld, lh, lmin, ls) - Math.floor(instant / 1000) * 1000;
  };
  const first = wall - offset(wall);
  return new Date(wall - offset(first));
}

/** The instant period `n` starts (and period n − 1 ends). */
export function periodStart(cycle: BillingCycle, n: number): Date {
  return instantOf(periodDate(cycle, n), cycle.anchorTime, cycle.timeZone);
}

/** The first period that starts at or after `at` (a resumed subscription's next period: those paused through are not billed). */
export function firstPeriodFrom(cycle: BillingCycle, at: Date, from: number): number {
  let n = from;
  while (periodStart(cycle, n) < at) n += 1;
  return n;
}

/** A subscription's cycle from its creation: anchored at `startDate` (00:00 local) or at the moment it is made, after its trial. */
export function cycleFrom(input: {
  readonly interval: BillingInterval;
  readonly intervalCount: number;
  readonly startDate?: LocalDate;
  readonly trialDays?: number;
  readonly now: Date;
  readonly timeZone: string;
}): BillingCycle {
  if (input.startDate !== undefined && !isLocalDate(input.startDate)) throw new Error(`not a date: ${input.startDate}`);
  const date = input.startDate ?? localDateOf(input.now, input.timeZone);
  const time = input.startDate ? '00:00:00' : localTimeOf(input.now, input.timeZone);
  return {
    interval: input.interval,
    intervalCount: input.intervalCount,
    anchorDate: addDays(date, input.trialDays ?? 0),
    anchorTime: time,
    timeZone: input.timeZone,
  };
}
