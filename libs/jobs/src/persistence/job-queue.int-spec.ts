import { RuntimeSettings } from '@pcs/config';
import { inTransaction, transactionOf } from '@pcs/database';
import { serviceContext, ServiceContext } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { JobQueue } from './job-queue';
import { JobsModule } from '../jobs.module';

/** The shared job queue on PostgreSQL: transactional sends, and replicas creating one queue at once. */
describe('job queue on PostgreSQL', () => {
  let services: ServiceContext;

  beforeAll(async () => {
    services = await serviceContext([JobsModule]);
  });
  afterAll(() => services.close());

  const jobsIn = (queue: string) =>
    services.dataSource.query<{ data: { n: number } }[]>(`SELECT data FROM pgboss.job WHERE name = $1`, [queue]);

  it('lets six replicas that start together create the same queue without a deadlock', async () => {
    // Six processes' worth of pg-boss instances; without the lock pg-boss's create_queue deadlocks here.
    const replicas = Array.from({ length: 6 }, () => new JobQueue(services.get(RuntimeSettings)));
    try {
      for (let round = 0; round < 3; round++) {
        const queue = `replicas-${crypto.randomBytes(4).toString('hex')}`;
        const outcomes = await Promise.allSettled(replicas.map((replica) => replica.queue(queue)));
        expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
        const rows = await services.dataSource.query<unknown[]>(`SELECT 1 FROM pgboss.queue WHERE name = $1`, [queue]);
        expect(rows).toHaveLength(1);
      }
    } finally {
      await Promise.all(replicas.map((replica) => replica.onModuleDestroy()));
    }
  });

  it('writes a job only with the transaction that sends it, and a worker receives what committed', async () => {
    const jobs = services.get(JobQueue);
    const queue = `tx-${crypto.randomBytes(4).toString('hex')}`;
    await expect(
      inTransaction(services.dataSource, async (manager) => {
        await jobs.send(transactionOf(manager), queue, { n: 1 });
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    await inTransaction(services.dataSource, (manager) => jobs.send(transactionOf(manager), queue, { n: 2 }));
    expect((await jobsIn(queue)).map((row) => row.data.n)).toEqual([2]);

    const received: number[] = [];
    await jobs.work<{ n: number }>(queue, { pollingIntervalSeconds: 0.5 }, async (batch) => {
      received.push(...batch.map((job) => job.data.n));
    });
    const until = Date.now() + 15_000;
    while (received.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([2]);
  });

  it("wakes this process's workers of a queue on a nudge, long before their next poll", async () => {
    const jobs = services.get(JobQueue);
    const queue = `nudged-${crypto.randomBytes(4).toString('hex')}`;
    const received: { n: number; at: number }[] = [];
    // A poll a minute away: only the nudge can bring the job in this test's time.
    await jobs.work<{ n: number }>(queue, { pollingIntervalSeconds: 60 }, async (batch) => {
      received.push(...batch.map((job) => ({ n: job.data.n, at: Date.now() })));
    });
    // The worker's first fetch (at its start) has found nothing; it now sleeps for a minute.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await inTransaction(services.dataSource, (manager) => jobs.send(transactionOf(manager), queue, { n: 5 }));
    const nudged = Date.now();
    jobs.nudge(queue);
    const until = Date.now() + 15_000;
    while (received.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.map((r) => r.n)).toEqual([5]);
    expect(received[0].at - nudged).toBeLessThan(10_000);
    // A queue this process does not work: a nudge does nothing (and throws nothing).
    expect(() => jobs.nudge(`nobody-${queue}`)).not.toThrow();
  });

  it('writes many jobs in one statement with the transaction, each with its own options', async () => {
    const jobs = services.get(JobQueue);
    const queue = `many-${crypto.randomBytes(4).toString('hex')}`;
    await expect(
      inTransaction(services.dataSource, async (manager) => {
        await jobs.sendMany(transactionOf(manager), queue, [{ data: { n: 1 } }, { data: { n: 2 } }]);
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    expect(await jobsIn(queue)).toEqual([]);
    await inTransaction(services.dataSource, (manager) =>
      jobs.sendMany(transactionOf(manager), queue, [
        { data: { n: 3 }, options: { retryLimit: 7, expireInSeconds: 45 } },
        { data: { n: 4 }, options: { startAfter: 300, retryLimit: 1 } },
      ]),
    );
    const rows = await services.dataSource.query<{ n: number; retry_limit: number; expire: number; later: boolean }[]>(
      `SELECT (data->>'n')::int AS n, retry_limit, extract(epoch FROM expire_in)::int AS expire, start_after > now() + interval '200 seconds' AS later
         FROM pgboss.job WHERE name = $1 ORDER BY 1`,
      [queue],
    );
    expect(rows).toEqual([
      { n: 3, retry_limit: 7, expire: 45, later: false },
      { n: 4, retry_limit: 1, expire: 900, later: true },
    ]);
  });
});
