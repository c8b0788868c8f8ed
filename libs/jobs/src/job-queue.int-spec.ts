import { RuntimeSettings } from '@pcs/config';
import { inTransaction } from '@pcs/database';
import { serviceContext, ServiceContext } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { JobQueue } from './job-queue';
import { JobsModule } from './jobs.module';

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
    const replicas = Array.from({ length: 6 }, () => new JobQueue(services.dataSource, services.get(RuntimeSettings)));
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
        await jobs.send(manager, queue, { n: 1 });
        throw new Error('the cause failed');
      }),
    ).rejects.toThrow('the cause failed');
    await inTransaction(services.dataSource, (manager) => jobs.send(manager, queue, { n: 2 }));
    expect((await jobsIn(queue)).map((row) => row.data.n)).toEqual([2]);

    const received: number[] = [];
    await jobs.work<{ n: number }>(queue, { pollingIntervalSeconds: 0.5 }, async (batch) => {
      received.push(...batch.map((job) => job.data.n));
    });
    const until = Date.now() + 15_000;
    while (received.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([2]);
  });
});
