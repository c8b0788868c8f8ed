import { addDays, LocalDate, localDateOf, localHourOf, startOfLocalDay, weekdayOf } from '@pcs/kernel';
import Holidays from 'date-holidays';

export type { LocalDate };

/** Where and how a country's business days are counted. */
export interface CountryCalendar {
  /** ISO 3166 alpha-3 (URY, ARG, BRA). */
  readonly iso3: string;
  readonly iso2: string;
  readonly timeZone: string;
}

/**
 * Days the library types `observance` that the country's banks still keep
 * closed (contract §19): Uruguay's Carnaval and Tourism Week (Semana de
 * Turismo). Named as the library names them in Spanish; the dates are the
 * library's (moved with Easter every year).
 */
const BANK_CLOSURES: Readonly<Record<string, readonly string[]>> = {
  URY: ['Carnaval', 'Semana de Turismo'],
};

const DAY_MS = 86_400_000;

/**
 * Business days in a country (contract §19): not a Saturday or Sunday, not a
 * national public holiday, not a bank holiday, as the `date-holidays` library
 * knows them (its `public` and `bank` types, plus the bank closures above).
 * Holidays are computed once per country and year.
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

  /** The closed days of a country in a year: public and bank holidays (several days when a holiday spans them). */
  private closedDays(country: CountryCalendar, year: number): ReadonlySet<LocalDate> {
    const key = `${country.iso3}:${year}`;
    let days = this.closed.get(key);
    if (!days) {
      const holidays = new Holidays(country.iso2, { languages: ['es'], timezone: country.timeZone });
      const closures = BANK_CLOSURES[country.iso3] ?? [];
      const set = new Set<LocalDate>();
      for (const holiday of holidays.getHolidays(year, 'es')) {
        if (holiday.type !== 'public' && holiday.type !== 'bank' && !closures.includes(holiday.name)) continue;
        const first = holiday.date.slice(0, 10);
        const span = Math.max(1, Math.round((holiday.end.getTime() - holiday.start.getTime()) / DAY_MS));
        for (let i = 0; i < span; i++) set.add(addDays(first, i));
      }
      this.closed.set(key, (days = set));
    }
    return days;
  }
}
