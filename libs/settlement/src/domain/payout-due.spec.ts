import { DEFAULT_PAYOUT_SCHEDULE, PayoutSchedule } from '@pcs/merchants';
import { BusinessCalendar, CountryCalendar } from './business-calendar';
import { isPayoutDue } from './payout-due';

const URY: CountryCalendar = { iso3: 'URY', iso2: 'UY', timeZone: 'America/Montevideo' };
const calendar = new BusinessCalendar();
const schedule = (s: Partial<PayoutSchedule>): PayoutSchedule => ({ ...DEFAULT_PAYOUT_SCHEDULE, ...s });
const due = (s: Partial<PayoutSchedule>, day: string) => isPayoutDue(schedule(s), URY, day, calendar);

describe('payout schedules (contract §19)', () => {
  it('DAILY pays on business days only; MANUAL never', () => {
    expect(due({}, '2026-11-27')).toBe(true);
    expect(due({}, '2026-11-28')).toBe(false);
    expect(due({}, '2026-12-25')).toBe(false);
    expect(due({ interval: 'MANUAL' }, '2026-11-27')).toBe(false);
  });

  it('WEEKLY pays on the anchor day, or the first business day after it that week when it is closed', () => {
    const friday = { interval: 'WEEKLY' as const, weeklyAnchor: 'FRIDAY' as const };
    expect(due(friday, '2026-11-27')).toBe(true);
    expect(due(friday, '2026-11-26')).toBe(false);
    // Thursday 2 April 2026 is in Tourism Week (closed through Friday): a Thursday anchor has no day that week.
    const thursday = { interval: 'WEEKLY' as const, weeklyAnchor: 'THURSDAY' as const };
    expect(['2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02', '2026-04-03'].some((d) => due(thursday, d))).toBe(false);
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
    // 31 October 2026 is a Saturday: paid on Monday 2 November, in the next month.
    expect(due({ interval: 'MONTHLY', monthlyAnchor: 31 }, '2026-11-02')).toBe(true);
    expect(due({ interval: 'MONTHLY', monthlyAnchor: 31 }, '2026-10-30')).toBe(false);
  });
});
