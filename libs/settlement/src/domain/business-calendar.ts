import { addDays, LocalDate, localDateOf, localHourOf, startOfLocalDay, weekdayOf } from '@pcs/kernel';
import Holidays from 'date-holidays';
import { BANK_CLOSURES } from './bank-calendar';

export type { LocalDate };

/** Where and how a country's business days are counted. */
export interface CountryCalendar {
  /** ISO 3166 alpha-3 (URY, ARG, BRA). */
  readonly iso3: string;
  readonly iso2: string;
  readonly timeZone: string;
}

const DAY_MS = 86_400_000;

/**
 * Business days in a country (contracts §19 and §24): the days its banks
 * are open — not a Saturday or Sunday, not a national public holiday or bank
 * holiday as the `date-holidays` library types them (`public`, `bank`), and
 * not a day of the project's own table of bank closures (bank-calendar.ts:
 * what the central banks list and the library types otherwise, each with its
 * source). Computed once per country and year.
 */
export class BusinessCalendar {
  private readonly closed = new Map<string, ReadonlySet<LocalDate>>();

  /** The country's local date of an instant. */
  localDate(instant: Date, timeZone: string): LocalDate {
    return localDateOf(instant, timeZone);
  }

  /** The instant a local date starts (00:00 in the time zone). */
  startOf(date: LocalDate, timeZone: string): Date {
    return startOfLocalDay(date, timeZone);
  }

  /** The local hour (0–23) of an instant. */
  localHour(instant: Date, timeZone: string): number {
    return localHourOf(instant, timeZone);
  }

  isBusinessDay(country: CountryCalendar, date: LocalDate): boolean {
    const weekday = weekdayOf(date);
    if (weekday === 0 || weekday === 6) return false;
    return !this.closedDays(country, Number(date.slice(0, 4))).has(date);
  }

  /** The weekdays of a year the country's banks are closed, in order (what docs/money.md and its test pin). */
  closedWeekdays(country: CountryCalendar, year: number): LocalDate[] {
    return [...this.closedDays(country, year)].filter((day) => weekdayOf(day) !== 0 && weekdayOf(day) !== 6).sort();
  }

  /** The n-th business day strictly after `date` (n ≥ 1). */
  businessDayAfter(country: CountryCalendar, date: LocalDate, n = 1): LocalDate {
    let day = date;
    for (let left = n; left > 0;) {
      day = addDays(day, 1);
      if (this.isBusinessDay(country, day)) left -= 1;
    }
    return day;
  }

  /** `date` itself when it is a business day, otherwise the next one. */
  businessDayOnOrAfter(country: CountryCalendar, date: LocalDate): LocalDate {
    return this.isBusinessDay(country, date) ? date : this.businessDayAfter(country, date);
  }

  /**
   * When money approved at `approvedAt` becomes available (contract §19): at
   * once with a delay of 0; otherwise at the start of the `delayDays`-th
   * business day after the approval's local date (so an approval on a
   * weekend or holiday counts from the next business day).
   */
  availableOn(country: CountryCalendar, approvedAt: Date, delayDays: number): Date {
    if (delayDays <= 0) return approvedAt;
    return this.startOf(this.businessDayAfter(country, this.localDate(approvedAt, country.timeZone), delayDays), country.timeZone);
  }

  /** The closed days of a country in a year: the library's public and bank holidays (a holiday may span days), and the table's. */
  private closedDays(country: CountryCalendar, year: number): ReadonlySet<LocalDate> {
    const key = `${country.iso3}:${year}`;
    let days = this.closed.get(key);
    if (!days) {
      const holidays = new Holidays(country.iso2, { languages: ['es'], timezone: country.timeZone }).getHolidays(year, 'es');
      const closures = BANK_CLOSURES[country.iso3] ?? [];
      const named = new Set(closures.flatMap((c) => ('libraryName' in c.rule ? [c.rule.libraryName] : [])));
      const set = new Set<LocalDate>();
      for (const holiday of holidays) {
        if (holiday.type !== 'public' && holiday.type !== 'bank' && !named.has(holiday.name)) continue;
        const first = holiday.date.slice(0, 10);
        const span = Math.max(1, Math.round((holiday.end.getTime() - holiday.start.getTime()) / DAY_MS));
        for (let i = 0; i < span; i++) set.add(addDays(first, i));
      }
      for (const { rule } of closures) {
        if ('date' in rule && rule.date.startsWith(`${year}-`)) set.add(rule.date);
        if ('everyYear' in rule) set.add(`${year}-${rule.everyYear}`);
      }
      if (closures.some(({ rule }) => 'lastBusinessDayOfYear' in rule)) {
        let last = `${year}-12-31`;
        while (weekdayOf(last) === 0 || weekdayOf(last) === 6 || set.has(last)) last = addDays(last, -1);
        set.add(last);
      }
      this.closed.set(key, (days = set));
    }
    return days;
  }
}
