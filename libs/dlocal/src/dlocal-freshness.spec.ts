import { DLOCAL_NOTIFICATION_FRESHNESS_MS, isFresh } from './dlocal-notifications';

describe("dLocal notifications' freshness (contract §27)", () => {
  const now = Date.parse('2026-11-27T12:00:00.000Z');

  it('takes an X-Date within ten minutes either side of our clock', () => {
    expect(isFresh('2026-11-27T12:00:00.000Z', now)).toBe(true);
    expect(isFresh('2026-11-27T11:50:00.000Z', now)).toBe(true);
    expect(isFresh('2026-11-27T12:10:00Z', now)).toBe(true);
    expect(isFresh('2026-11-27T09:05:00-03:00', now)).toBe(true);
  });

  it('refuses one older or further ahead than ten minutes, or not a date', () => {
    expect(isFresh(new Date(now - DLOCAL_NOTIFICATION_FRESHNESS_MS - 1000).toISOString(), now)).toBe(false);
    expect(isFresh(new Date(now + DLOCAL_NOTIFICATION_FRESHNESS_MS + 1000).toISOString(), now)).toBe(false);
    for (const odd of ['', 'yesterday', '1795000000', '2026-11-27', '2026-13-45T99:99:99Z', '2026-11-27T12:00:00.000Z\n'])
      expect(isFresh(odd, now)).toBe(false);
  });
});
