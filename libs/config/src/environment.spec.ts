import { DEFAULT_WEBHOOK_SETTINGS } from './runtime-settings';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, EnvironmentError, loadEnvironment, parseRetrySchedule, processorApisOf } from './environment';

describe('webhook settings from the environment (contract §14)', () => {
  it('reads the default retry schedule as the contract states it, and the 15 s deadline', () => {
    expect(DEFAULT_WEBHOOK_RETRY_SCHEDULE).toBe('5s,5m,30m,2h,5h,10h,10h');
    expect(parseRetrySchedule(DEFAULT_WEBHOOK_RETRY_SCHEDULE)).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(DEFAULT_WEBHOOK_SETTINGS.retryScheduleSeconds).toEqual(parseRetrySchedule(DEFAULT_WEBHOOK_RETRY_SCHEDULE));
    expect(DEFAULT_WEBHOOK_SETTINGS.timeoutMs).toBe(15_000);
  });

  it('refuses a schedule it cannot read, naming the variable', () => {
    for (const bad of ['', '5', '5x', '0s', '5s,', ',5s', '5s 5m', '-5s']) {
      expect(() => loadEnvironment({ WEBHOOK_RETRY_SCHEDULE: bad })).toThrow(EnvironmentError);
    }
    expect(() => parseRetrySchedule('1h,')).toThrow('not a retry schedule');
  });

  it('reads WEBHOOKS_ALLOW_LOCALHOST as a boolean, unset when empty', () => {
    expect(loadEnvironment({}).WEBHOOKS_ALLOW_LOCALHOST).toBeUndefined();
    expect(loadEnvironment({ WEBHOOKS_ALLOW_LOCALHOST: '' }).WEBHOOKS_ALLOW_LOCALHOST).toBeUndefined();
    expect(loadEnvironment({ WEBHOOKS_ALLOW_LOCALHOST: 'true' }).WEBHOOKS_ALLOW_LOCALHOST).toBe(true);
    expect(loadEnvironment({ WEBHOOKS_ALLOW_LOCALHOST: 'false' }).WEBHOOKS_ALLOW_LOCALHOST).toBe(false);
    expect(() => loadEnvironment({ WEBHOOKS_ALLOW_LOCALHOST: 'maybe' })).toThrow('WEBHOOKS_ALLOW_LOCALHOST must be true or false');
  });

  it('takes TRUST_PROXY as false, a hop count or addresses, and refuses `true` (any caller could pick its own address)', () => {
    expect(loadEnvironment({}).TRUST_PROXY).toBe('false');
    for (const value of ['false', '1', 'loopback', '10.0.0.0/8, 172.16.0.1', 'loopback, uniquelocal'])
      expect(loadEnvironment({ TRUST_PROXY: value }).TRUST_PROXY).toBe(value);
    for (const value of ['true', 'x'.repeat(501), '10.0.0.1;rm'])
      expect(() => loadEnvironment({ TRUST_PROXY: value })).toThrow('TRUST_PROXY');
  });
});

describe("processors' APIs from the environment", () => {
  it('reads each by the name its processor registers, its address without a trailing slash and its bound in ms', () => {
    const env = loadEnvironment({ MERCADOPAGO_API_URL: 'http://127.0.0.1:9000/', DLOCAL_TIMEOUT_SECONDS: '3' });
    expect(processorApisOf(env)).toEqual({
      MERCADO_PAGO: { url: 'http://127.0.0.1:9000', timeoutMs: 10_000, browserScript: 'https://sdk.mercadopago.com/js/v2' },
      DLOCAL: { url: 'https://api.dlocal.com', timeoutMs: 3000, browserScript: 'https://js.dlocal.com/' },
    });
  });

  it('refuses a bound over 10 s and an address that is not http(s)', () => {
    expect(() => loadEnvironment({ DLOCAL_TIMEOUT_SECONDS: '11' })).toThrow(/DLOCAL_TIMEOUT_SECONDS/);
    expect(() => loadEnvironment({ MERCADOPAGO_API_URL: 'ftp://example.com' })).toThrow(/MERCADOPAGO_API_URL/);
  });
});
