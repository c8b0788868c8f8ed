import { DEFAULT_PAYOUT_SCHEDULE, PayoutSchedule } from '@pcs/merchants';
import { BusinessCalendar, CountryCalendar } from './business-calendar';
import { isPayoutDue } from './payout-due';

const URY: CountryCalendar = { iso3: 'URY', iso2: 'UY', timeZone: 'America/Montevideo' };
const calendar = new BusinessCalendar();
const schedule = (s: Partial<PayoutSchedule>): PayoutSchedule => ({ ...DEFAULT_PAYOUT_SCHEDULE, ...s });
const due = (s: Partial<PayoutSchedule>, day: string) => isPayoutDue(schedule(s), URY, day, calendar);

describe('payout schedules (contracts §19, §24)', () => {
  it('DAILY pays on business days only; MANUAL never', () => {
    expect(due({}, '2026-11-27')).toBe(true);
    expect(due({}, '2026-11-28')).toBe(false);
    expect(due({}, '2026-12-25')).toBe(false);
    expect(due({ interval: 'MANUAL' }, '2026-11-27')).toBe(false);
  });

  it('WEEKLY pays on the anchor day, or the first business day after it when it is closed, even in the next week', () => {
    const friday = { interval: 'WEEKLY' as const, weeklyAnchor: 'FRIDAY' as const };
    expect(due(friday, '2026-11-27')).toBe(true);
    expect(due(friday, '2026-11-26')).toBe(false);
    // Thursday 2 April 2026 is in Tourism Week (closed through Friday): the Thursday anchor pays on Monday 6 April, and again on Thursday 9.
    const thursday = { interval: 'WEEKLY' as const, weeklyAnchor: 'THURSDAY' as const };
    expect(['2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02', '2026-04-03'].some((d) => due(thursday, d))).toBe(false);
    expect(due(thursday, '2026-04-06')).toBe(true);
    expect(due(thursday, '2026-04-07')).toBe(false);
    expect(due(thursday, '2026-04-09')).toBe(true);
    // Fridays 25 December 2026 and 1 January 2027 are holidays: paid on Mondays 28 December and 4 January (once skipped from 18 December to 8 January).
    expect(['2026-12-18', '2026-12-28', '2027-01-04', '2027-01-08'].filter((d) => due(friday, d))).toEqual([
      '2026-12-18',
      '2026-12-28',
      '2027-01-04',
      '2027-01-08',
    ]);
    // Monday 16 February 2026 is Carnaval (closed Monday and Tuesday): a Monday anchor pays on Wednesday.
    const monday = { interval: 'WEEKLY' as const, weeklyAnchor: 'MONDAY' as const };
    expect(due(monday, '2026-02-16')).toBe(false);
    expect(due(monday, '2026-02-18')).toBe(true);
    expect(due(monday, '2026-02-19')).toBe(false);
  });

  it('MONTHLY pays on the anchor date, the month’s last day when shorter, or the next business day', () => {
    expect(due({ interval: 'MONTHLY', monthlyAnchor: 10 }, '2026-11-10')).toBe(true);
    expect(due({ interval: 'MONTHLY', monthlyAnchor: 10 }, '2026-11-11')).toBe(false);
    // 31 → 30 November 2026 (a Monday).
    expect(due({ interval: 'MONTHLY', monthlyAnchor: 31 }, '2026-11-30')).toBe(true);
    // 31 October 2026 is a Saturday and Monday 2 November Día de los Difuntos: paid on Tuesday 3 November, in the next month.
    expect(due({ interval: 'MONTHLY', monthlyAnchor: 31 }, '2026-11-02')).toBe(false);
    expect(due({ interval: 'MONTHLY', monthlyAnchor: 31 }, '2026-11-03')).toBe(true);
    expect(due({ interval: 'MONTHLY', monthlyAnchor: 31 }, '2026-10-30')).toBe(false);
  });

  it('never skips an anchor nor adds a payout: every anchor of 2026–2027 in each country has exactly its one day', () => {
    const countries: CountryCalendar[] = [
      URY,
      { iso3: 'ARG', iso2: 'AR', timeZone: 'America/Argentina/Buenos_Aires' },
      { iso3: 'BRA', iso2: 'BR', timeZone: 'America/Sao_Paulo' },
    ];
    const days: string[] = [];
    for (let t = Date.parse('2026-01-05T00:00:00Z'); t <= Date.parse('2027-12-31T00:00:00Z'); t += 86_400_000)
      days.push(new Date(t).toISOString().slice(0, 10));
    for (const country of countries) {
      const schedules: PayoutSchedule[] = [
        ...(['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'] as const).map((weeklyAnchor) =>
          schedule({ interval: 'WEEKLY', weeklyAnchor }),
        ),
        ...[1, 15, 28, 31].map((monthlyAnchor) => schedule({ interval: 'MONTHLY', monthlyAnchor })),
      ];
      for (const s of schedules) {
        const paid = new Set(days.filter((day) => isPayoutDue(s, country, day, calendar)));
        // Each anchor date (a weekday of the schedule, or a month's anchor) is paid on its first business day on or after it.
        const anchors = days.filter((day) =>
          s.interval === 'WEEKLY'
            ? new Date(`${day}T00:00:00Z`).getUTCDay() ===
              ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'].indexOf(s.weeklyAnchor!) + 1
            : Number(day.slice(8)) ===
              Math.min(s.monthlyAnchor!, new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 0)).getUTCDate()),
        );
        const expected = new Set(
          anchors.map((anchor) => calendar.businessDayOnOrAfter(country, anchor)).filter((d) => d <= days[days.length - 1]),
        );
        expect([...paid].sort()).toEqual([...expected].sort());
      }
    }
  });
});
