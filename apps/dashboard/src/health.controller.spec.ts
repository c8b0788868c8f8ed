import type { DataSource } from 'typeorm';
import { recordingResponse } from '@pcs/testing';
import { HealthController } from './health.controller';

/** The dashboard's readiness: 200 while its database answers, 503 when it fails or does not answer within two seconds. */
describe('HealthController (dashboard)', () => {
  async function checkWith(query: () => Promise<unknown>) {
    const { res, answer } = recordingResponse();
    await new HealthController({ query } as unknown as DataSource).check(res);
    return { status: answer.status, body: answer.json };
  }

  it('is ready while the database answers, and not when it fails', async () => {
    expect(await checkWith(() => Promise.resolve([{ '?column?': 1 }]))).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await checkWith(() => Promise.reject(new Error('connection refused')))).toEqual({ status: 503, body: { status: 'error' } });
  });

  it('is not ready when the database does not answer within two seconds', async () => {
    jest.useFakeTimers();
    try {
      const pending = checkWith(() => new Promise(() => undefined));
      await jest.advanceTimersByTimeAsync(2000);
      expect(await pending).toEqual({ status: 503, body: { status: 'error' } });
    } finally {
      jest.useRealTimers();
    }
  });
});
