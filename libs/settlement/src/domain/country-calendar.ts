import type { Country } from '@pcs/catalog';
import type { CountryCalendar } from './business-calendar';

/** A catalog country as its business days are counted. */
export function calendarOf(country: Pick<Country, 'iso3' | 'iso2' | 'timeZone'>): CountryCalendar {
  return { iso3: country.iso3, iso2: country.iso2, timeZone: country.timeZone };
}
