import type { PayoutSchedule } from '@pcs/merchants';
import { PAYOUT_WEEKDAYS } from '@pcs/merchants';
import { addDays, LocalDate, weekdayOf } from '@pcs/kernel';
import { BusinessCalendar, CountryCalendar } from './business-calendar';

/**
 * Whether a schedule makes a payout on a local day (contracts §19, §24):
 * DAILY on every business day; WEEKLY on the anchor weekday, or the first
 * business day after it when banks are closed that day, even in a later week;
 * MONTHLY on the anchor date (the month's last day when the month is
 * shorter), or the first business day after it, even in the next month.
 * MANUAL never. An anchor is never skipped: each one has exactly one day.
 */
export function isPayoutDue(schedule: PayoutSchedule, country: CountryCalendar, day: LocalDate, calendar: BusinessCalendar): boolean {
  if (schedule.interval === 'MANUAL' || !calendar.isBusinessDay(country, day)) return false;
  if (schedule.interval === 'DAILY') return true;
  if (schedule.interval === 'WEEKLY') {
    // Monday is 1 … Friday 5. This week's anchor day, and those of the two weeks before (closures can span a week: Tourism Week).
    const anchor = PAYOUT_WEEKDAYS.indexOf(schedule.weeklyAnchor ?? 'MONDAY') + 1;
    const thisWeeks = addDays(day, anchor - weekdayOf(day));
    return [0, 7, 14].some((back) => {
      const anchorDay = addDays(thisWeeks, -back);
      return anchorDay <= day && calendar.businessDayOnOrAfter(country, anchorDay) === day;
    });
  }
  const [year, month] = day.split('-').map(Number);
  // This month's anchor, or last month's when its payout fell into this month (a weekend or holiday at the month's end).
  return [
    anchorDate(year, month, schedule.monthlyAnchor ?? 1),
    anchorDate(month === 1 ? year - 1 : year, month === 1 ? 12 : month - 1, schedule.monthlyAnchor ?? 1),
  ].some((anchorDay) => calendar.businessDayOnOrAfter(country, anchorDay) === day);
}

function anchorDate(year: number, month: number, anchor: number): LocalDate {
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(anchor, lastDay)).padStart(2, '0')}`;
}
