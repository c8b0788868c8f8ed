import './pg-boss-timers';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const tools = require('pg-boss/src/tools') as { delay: (ms: number, error?: string) => Promise<void> & { abort(): void } };

describe("pg-boss's delay, put in place before pg-boss loads", () => {
  it('requires nothing when called (a stop loop may call it after a test environment ended) and behaves as pg-boss’s', async () => {
    expect(tools.delay.toString()).not.toContain('require(');
    const started = Date.now();
    await tools.delay(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    const aborted = tools.delay(60_000);
    aborted.abort();
    await expect(aborted).resolves.toBeUndefined();
    await expect(tools.delay(1, 'too late')).rejects.toThrow('too late');
  });
});
