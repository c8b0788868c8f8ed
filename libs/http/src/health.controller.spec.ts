import { ServiceUnavailableException } from '@nestjs/common';
import type { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { Response } from 'express';
import type { DataSource } from 'typeorm';
import { HealthController } from './health.controller';

const down = {
  status: 'error',
  info: {},
  error: { database: { status: 'down', message: 'timeout' } },
  details: { database: { status: 'down' } },
};

function controllerWith(check: () => Promise<unknown>) {
  const pinged: unknown[] = [];
  const database = {
    pingCheck: (key: string, options: unknown) => {
      pinged.push({ key, options });
      return Promise.resolve({ [key]: { status: 'up' } });
    },
  } as unknown as TypeOrmHealthIndicator;
  const health = {
    check: async (indicators: (() => Promise<unknown>)[]) => {
      for (const indicator of indicators) await indicator();
      return check();
    },
  } as unknown as HealthCheckService;
  const dataSource = { name: 'default' } as unknown as DataSource;
  let status = 200;
  const response = { status: (code: number) => ((status = code), response) } as unknown as Response;
  return { controller: new HealthController(dataSource, health, database), response, pinged, dataSource, status: () => status };
}

/**
 * Readiness (contract §17): the database pinged within two seconds; 200 and Terminus's answer when
 * it answers, 503 with the same shape when it does not; any other failure is not a health answer.
 * test/database-outage.e2e-spec.ts stops a real database under it.
 */
describe('HealthController', () => {
  it('pings this process’s database within two seconds and answers 200 when it is up', async () => {
    const up = { status: 'ok', info: { database: { status: 'up' } }, error: {}, details: { database: { status: 'up' } } };
    const { controller, response, pinged, dataSource, status } = controllerWith(() => Promise.resolve(up));
    expect(await controller.check(response)).toEqual(up);
    expect(pinged).toEqual([{ key: 'database', options: { connection: dataSource, timeout: 2000 } }]);
    expect(status()).toBe(200);
  });

  it('answers 503 with Terminus’s body when the database is down, and lets any other failure through', async () => {
    const { controller, response, status } = controllerWith(() => Promise.reject(new ServiceUnavailableException(down)));
    expect(await controller.check(response)).toEqual(down);
    expect(status()).toBe(503);
    const broken = controllerWith(() => Promise.reject(new Error('a bug')));
    await expect(broken.controller.check(broken.response)).rejects.toThrow('a bug');
    expect(broken.status()).toBe(200);
  });
});
