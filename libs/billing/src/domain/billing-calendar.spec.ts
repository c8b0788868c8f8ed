import { addMonths, BillingCycle, cycleFrom, firstPeriodFrom, instantOf, periodDate, periodStart } from './billing-calendar';

const monthly = (anchorDate: string, intervalCount = 1): BillingCycle => ({
  interval: 'MONTH',
  intervalCount,
  anchorDate,
  anchorTime: '09:30:00',
  timeZone: 'America/Montevideo',
});

describe('billing calendar', () => {
  it('charges a subscription started on the 31st on the last day of shorter months, and on the 31st again after them', () => {
    const dates = Array.from({ length: 13 }, (_, n) => periodDate(monthly('2027-01-31'), n));
    expect(dates).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
      '2027-06-30',
      '2027-07-31',
      '2027-08-31',
      '2027-09-30',
      '2027-10-31',
      '2027-11-30',
      '2027-12-31',
      '2028-01-31',
    ]);
    expect(periodDate(monthly('2028-01-30'), 1)).toBe('2028-02-29');
  });

  it('keeps Feb 29 on Feb 28 between leap years, and counts every interval from the anchor', () => {
    const yearly: BillingCycle = { ...monthly('2028-02-29'), interval: 'YEAR' };
    expect([0, 1, 2, 3, 4].map((n) => periodDate(yearly, n))).toEqual([
      '2028-02-29',
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
    ]);
    expect([0, 1, 2].map((n) => periodDate(monthly('2027-11-30', 3), n))).toEqual(['2027-11-30', '2028-02-29', '2028-05-30']);
    expect(periodDate({ ...monthly('2027-12-30'), interval: 'WEEK', intervalCount: 2 }, 1)).toBe('2028-01-13');
    expect(periodDate({ ...monthly('2027-12-30'), interval: 'DAY', intervalCount: 3 }, 2)).toBe('2028-01-05');
    expect(addMonths('2027-01-15', -2)).toBe('2026-11-15');
  });

  it('reads the period’s date and time in the merchant’s zone (Montevideo and São Paulo are UTC−3; Buenos Aires too)', () => {
    expect(periodStart(monthly('2027-01-31'), 1).toISOString()).toBe('2027-02-28T12:30:00.000Z');
    expect(instantOf('2027-06-01', '00:00:00', 'America/Sao_Paulo').toISOString()).toBe('2027-06-01T03:00:00.000Z');
    // A zone with a change of offset: New York's spring forward and fall back.
    expect(instantOf('2027-03-14', '12:00:00', 'America/New_York').toISOString()).toBe('2027-03-14T16:00:00.000Z');
    expect(instantOf('2027-11-07', '12:00:00', 'America/New_York').toISOString()).toBe('2027-11-07T17:00:00.000Z');
  });

  it('anchors at the start date’s midnight or at the moment of creation, after the trial', () => {
    const now = new Date('2027-03-10T15:45:10Z');
    expect(cycleFrom({ interval: 'MONTH', intervalCount: 1, now, timeZone: 'America/Montevideo' })).toEqual({
      interval: 'MONTH',
      intervalCount: 1,
      anchorDate: '2027-03-10',
      anchorTime: '12:45:10',
      timeZone: 'America/Montevideo',
    });
    const started = cycleFrom({
      interval: 'MONTH',
      intervalCount: 1,
      startDate: '2027-03-31',
      trialDays: 14,
      now,
      timeZone: 'America/Montevideo',
    });
    expect([started.anchorDate, started.anchorTime]).toEqual(['2027-04-14', '00:00:00']);
  });

  it('finds the first period at or after a moment (a resumed subscription skips the periods it was paused through)', () => {
    const cycle = monthly('2027-01-31');
    expect(firstPeriodFrom(cycle, new Date('2027-04-01T00:00:00Z'), 1)).toBe(3);
    expect(firstPeriodFrom(cycle, periodStart(cycle, 3), 1)).toBe(3);
    expect(firstPeriodFrom(cycle, new Date('2026-01-01T00:00:00Z'), 5)).toBe(5);
  });
});
