import { ConsecutiveWithinWindowBreaker } from './processor-circuits';
import { drawOf } from './processor-routes';

/**
 * The breaker's rule (contract §26): it opens after 5 unreachable answers in a row that all fall
 * within a minute; a success, or a run spread over more than a minute, does not open it. And the
 * weighted draw is the same for the same attempt, spread evenly over many.
 */
describe('a processor account’s breaker rule', () => {
  it('opens on the fifth failure in a row within the window, not before, and a success starts over', () => {
    let now = 0;
    const breaker = new ConsecutiveWithinWindowBreaker(5, 60_000, () => now);
    for (let i = 0; i < 4; i++) expect(breaker.failure()).toBe(false);
    breaker.success();
    for (let i = 0; i < 4; i++) expect(breaker.failure()).toBe(false);
    now = 59_000;
    expect(breaker.failure()).toBe(true);
  });

  it('does not open on five failures spread over more than the window', () => {
    let now = 0;
    const breaker = new ConsecutiveWithinWindowBreaker(5, 60_000, () => now);
    for (const at of [0, 16_000, 32_000, 48_000, 64_000]) {
      now = at;
      expect(breaker.failure()).toBe(false);
    }
    // The last five (16 s to 70 s) fall within the minute.
    now = 70_000;
    expect(breaker.failure()).toBe(true);
  });
});

describe('the weighted draw of an attempt', () => {
  it('is the same for the same attempt and spreads over [0, 1)', () => {
    expect(drawOf('attempt-1')).toBe(drawOf('attempt-1'));
    const draws = Array.from({ length: 2000 }, (_, i) => drawOf(`attempt-${i}`));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    const low = draws.filter((d) => d < 0.5).length;
    expect(low).toBeGreaterThan(900);
    expect(low).toBeLessThan(1100);
  });
});
