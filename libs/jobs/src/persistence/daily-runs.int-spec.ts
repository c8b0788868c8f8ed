import { RuntimeSettings } from '@pcs/config';
import { eventually, serviceContext, ServiceContext } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { DailyRuns } from './daily-runs';
import { JobQueue } from './job-queue';
import { JobsModule } from '../jobs.module';

/** Contract §19: work at a local hour, once a day per scope, whatever the number of processes. */
describe('daily runs', () => {
  let services: ServiceContext;

  beforeAll(async () => {
    services = await serviceContext([JobsModule]);
  });
  afterAll(() => services.close());

  it('claims each day’s run once across five processes checking at once, in each scope’s own time zone, and runs it once', async () => {
    const base = services.get(RuntimeSettings);
    const kind = `test-${crypto.randomBytes(4).toString('hex')}`;
    // Every "process": its own job queue (pg-boss instance) and DailyRuns on the shared database, claiming by hand (claim: false stops its timer).
    const settings = Object.assign(Object.create(RuntimeSettings.prototype) as RuntimeSettings, base, {
      dailyRuns: { claim: false, checkSeconds: 60, queue: `daily-${kind}` },
    });
    const ran: string[] = [];
    const processes = Array.from({ length: 5 }, (_, index) => {
      const jobs = new JobQueue(settings);
      const runs = new DailyRuns(services.dataSource, jobs, settings);
      runs.register(
        kind,
        6,
        async () => [
          { scope: 'URY', timeZone: 'America/Montevideo' },
          { scope: 'MAD', timeZone: 'Europe/Madrid' },
        ],
        async (scope, localDate) => {
          ran.push(`${scope} ${localDate} by ${index}`);
        },
      );
      return { jobs, runs };
    });
    try {
      await Promise.all(processes.map(({ runs }) => runs.onApplicationBootstrap()));
      const checkEverywhere = async (at: string) => {
        for (let round = 0; round < 3; round++) await Promise.all(processes.map(({ runs }) => runs.check(new Date(at))));
      };
      const claims = () =>
        services.dataSource.query<{ scope: string; day: string }[]>(
          `SELECT scope, to_char(local_date, 'YYYY-MM-DD') AS day FROM daily_run WHERE kind = $1 ORDER BY scope, local_date`,
          [kind],
        );

      // 04:30 UTC: 05:30 in Madrid, 01:30 in Montevideo: nothing is due.
      await checkEverywhere('2026-11-25T04:30:00Z');
      expect(await claims()).toEqual([]);
      // 05:10 UTC: 06:10 in Madrid (due), 02:10 in Montevideo (not yet).
      await checkEverywhere('2026-11-25T05:10:00Z');
      expect(await claims()).toEqual([{ scope: 'MAD', day: '2026-11-25' }]);
      // 09:05 UTC: 06:05 in Montevideo; Madrid's run of the day is already claimed.
      await checkEverywhere('2026-11-25T09:05:00Z');
      // The next day's hour, checked late (a process that was down at 06:00 claims when it comes back the same day).
      await checkEverywhere('2026-11-26T20:00:00Z');
      const expected = [
        { scope: 'MAD', day: '2026-11-25' },
        { scope: 'MAD', day: '2026-11-26' },
        { scope: 'URY', day: '2026-11-25' },
        { scope: 'URY', day: '2026-11-26' },
      ];
      expect(await claims()).toEqual(expected);

      // Each claimed run is done once, by whichever process's worker took its job.
      await eventually(
        async () => ran.length,
        (n) => n >= expected.length,
      );
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(ran.map((run) => run.replace(/ by \d$/, '')).sort()).toEqual(expected.map(({ scope, day }) => `${scope} ${day}`));
      const [{ jobs }] = await services.dataSource.query<{ jobs: number }[]>(
        `SELECT count(*)::int AS jobs FROM pgboss.job WHERE name = $1`,
        [settings.dailyRuns.queue],
      );
      expect(jobs).toBe(expected.length);
    } finally {
      for (const { runs, jobs } of processes) {
        await runs.onApplicationShutdown();
        await jobs.onModuleDestroy();
      }
    }
  });
});
