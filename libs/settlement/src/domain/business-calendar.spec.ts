import { BusinessCalendar, CountryCalendar } from './business-calendar';

const URY: CountryCalendar = { iso3: 'URY', iso2: 'UY', timeZone: 'America/Montevideo' };
const ARG: CountryCalendar = { iso3: 'ARG', iso2: 'AR', timeZone: 'America/Argentina/Buenos_Aires' };
const BRA: CountryCalendar = { iso3: 'BRA', iso2: 'BR', timeZone: 'America/Sao_Paulo' };

describe('BusinessCalendar', () => {
  const calendar = new BusinessCalendar();

  it('skips weekends, public holidays and the bank closures of each country (from date-holidays)', () => {
    expect(calendar.isBusinessDay(URY, '2026-11-27')).toBe(true); // a Friday
    expect(calendar.isBusinessDay(URY, '2026-11-28')).toBe(false); // Saturday
    expect(calendar.isBusinessDay(URY, '2026-11-29')).toBe(false); // Sunday
    expect(calendar.isBusinessDay(URY, '2026-12-25')).toBe(false); // Navidad (public)
    // Uruguay's Carnaval (Monday and Tuesday) and the whole Tourism Week: the library types them observances; banks close.
    expect(calendar.isBusinessDay(URY, '2026-02-16')).toBe(false);
    expect(calendar.isBusinessDay(URY, '2026-02-17')).toBe(false);
    for (const day of ['2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02', '2026-04-03'])
      expect(calendar.isBusinessDay(URY, day)).toBe(false);
    expect(calendar.isBusinessDay(URY, '2026-04-06')).toBe(true);
    // Uruguay's "feriados laborables" (typed observances by the library) close the banks too: Día de los Difuntos.
    expect(calendar.isBusinessDay(URY, '2026-11-02')).toBe(false);
    // Argentina: Carnaval and the Día de la Soberanía Nacional (moved to a Monday) are public holidays; Jueves Santo a bank holiday.
    expect(calendar.isBusinessDay(ARG, '2026-02-16')).toBe(false);
    expect(calendar.isBusinessDay(ARG, '2026-11-23')).toBe(false);
    expect(calendar.isBusinessDay(ARG, '2026-04-02')).toBe(false);
    // Brazil: Carnaval Monday and Tuesday are bank holidays; the optional Ash Wednesday is not a closure.
    expect(calendar.isBusinessDay(BRA, '2026-02-16')).toBe(false);
    expect(calendar.isBusinessDay(BRA, '2026-02-17')).toBe(false);
    expect(calendar.isBusinessDay(BRA, '2026-02-18')).toBe(true);
    expect(calendar.isBusinessDay(BRA, '2026-11-20')).toBe(false); // Consciência Negra
  });

  /*
   * Every weekday of 2026 the banks are closed, pinned against the published lists:
   * - Argentina (BCRA): the national holidays of Ley 27.399 as moved for 2026, Jueves Santo, the three días no laborables con
   *   fines turísticos of Decreto 614/2025 (23 March, 10 July, 7 December: no activity in financial entities), and Día del
   *   Bancario (6 November). Not 24 or 31 December (no decree closes them in 2026).
   * - Uruguay (BCU): the holidays of Ley 16.805 in the text of Ley 17.414, the "laborables" included (6 January stays a Tuesday:
   *   it is not movable), Carnaval, and the whole Tourism Week; 18 July (Saturday) and 19 April (Sunday) fall on weekends.
   * - Brazil (FEBRABAN, under CMN Resolução 4.880/2020): 13 days without banking for the public, 15 November a Sunday among
   *   them, and 31 December; Ash Wednesday (18 February) opens at noon, a business day.
   */
  it('pins 2026: the weekdays banks are closed in Argentina, Uruguay and Brazil, as their central banks list them', () => {
    expect(calendar.closedWeekdays(ARG, 2026)).toEqual([
      '2026-01-01',
      '2026-02-16',
      '2026-02-17',
      '2026-03-23',
      '2026-03-24',
      '2026-04-02',
      '2026-04-03',
      '2026-05-01',
      '2026-05-25',
      '2026-06-15',
      '2026-07-09',
      '2026-07-10',
      '2026-08-17',
      '2026-10-12',
      '2026-11-06',
      '2026-11-23',
      '2026-12-07',
      '2026-12-08',
      '2026-12-25',
    ]);
    expect(calendar.closedWeekdays(URY, 2026)).toEqual([
      '2026-01-01',
      '2026-01-06',
      '2026-02-16',
      '2026-02-17',
      '2026-03-30',
      '2026-03-31',
      '2026-04-01',
      '2026-04-02',
      '2026-04-03',
      '2026-05-01',
      '2026-05-18',
      '2026-06-19',
      '2026-08-25',
      '2026-10-12',
      '2026-11-02',
      '2026-12-25',
    ]);
    expect(calendar.closedWeekdays(BRA, 2026)).toEqual([
      '2026-01-01',
      '2026-02-16',
      '2026-02-17',
      '2026-04-03',
      '2026-04-21',
      '2026-05-01',
      '2026-06-04',
      '2026-09-07',
      '2026-10-12',
      '2026-11-02',
      '2026-11-20',
      '2026-12-25',
      '2026-12-31',
    ]);
  });

  it('keeps the rules of the table in other years: Día del Bancario, and Brazil’s last business day when 31 December is a weekend', () => {
    expect(calendar.isBusinessDay(ARG, '2027-11-05')).toBe(true);
    expect(calendar.isBusinessDay(ARG, '2025-11-06')).toBe(false); // a Thursday
    // 31 December 2027 is a Friday (closed); 2028's is a Sunday, so Friday 29 December 2028 closes instead.
    expect(calendar.isBusinessDay(BRA, '2027-12-31')).toBe(false);
    expect(calendar.isBusinessDay(BRA, '2028-12-29')).toBe(false);
    expect(calendar.isBusinessDay(BRA, '2028-12-28')).toBe(true);
  });

  it('counts availability from the approval’s local date, at the start of the business day, in the country’s zone', () => {
    // Monday 10:00 in Montevideo (13:00Z), 2 business days: Wednesday 00:00 Montevideo = 03:00Z.
    expect(calendar.availableOn(URY, new Date('2026-11-23T13:00:00Z'), 2).toISOString()).toBe('2026-11-25T03:00:00.000Z');
    // Friday 23:30 in Montevideo is Saturday 02:30Z: still Friday there, so 1 business day is Monday.
    expect(calendar.availableOn(URY, new Date('2026-11-28T02:30:00Z'), 1).toISOString()).toBe('2026-11-30T03:00:00.000Z');
    // Approved on a Saturday: counting starts from the next business day (Monday is day 1).
    expect(calendar.availableOn(URY, new Date('2026-11-28T15:00:00Z'), 1).toISOString()).toBe('2026-11-30T03:00:00.000Z');
    // Approved before Carnaval: Friday 13 February 2026, 1 day → Wednesday 18 (Monday and Tuesday are closed).
    expect(calendar.availableOn(URY, new Date('2026-02-13T15:00:00Z'), 1).toISOString()).toBe('2026-02-18T03:00:00.000Z');
    // The Tourism Week takes five days.
    expect(calendar.availableOn(URY, new Date('2026-03-27T15:00:00Z'), 1).toISOString()).toBe('2026-04-06T03:00:00.000Z');
    // Delay 0: available at the approval itself.
    const now = new Date('2026-11-28T15:00:00Z');
    expect(calendar.availableOn(URY, now, 0)).toBe(now);
  });

  it('reads local dates and hours across the day line', () => {
    expect(calendar.localDate(new Date('2026-11-28T02:30:00Z'), 'America/Montevideo')).toBe('2026-11-27');
    expect(calendar.localHour(new Date('2026-11-28T09:00:00Z'), 'America/Sao_Paulo')).toBe(6);
    expect(calendar.startOf('2026-11-30', 'America/Argentina/Buenos_Aires').toISOString()).toBe('2026-11-30T03:00:00.000Z');
    // A zone with daylight saving time (New York, a day after the change): its own offset that day.
    expect(calendar.startOf('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(calendar.startOf('2026-07-01', 'America/New_York').toISOString()).toBe('2026-07-01T04:00:00.000Z');
  });

  it('finds the n-th business day after a date, and a business day on or after one', () => {
    expect(calendar.businessDayAfter(URY, '2026-12-24', 1)).toBe('2026-12-28'); // Christmas Friday, a weekend
    expect(calendar.businessDayOnOrAfter(URY, '2026-12-25')).toBe('2026-12-28');
    expect(calendar.businessDayOnOrAfter(URY, '2026-12-28')).toBe('2026-12-28');
  });
});
