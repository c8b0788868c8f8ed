import { BusinessesModule, BusinessService } from '@pcs/businesses';
import { RuntimeSettings } from '@pcs/config';
import { Guard, inTransaction, Requirement, runChange, transactionOf } from '@pcs/database';
import { MerchantsModule, MerchantService } from '@pcs/merchants';
import { serviceContext, ServiceContext } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { EventRecorder } from './event-recorder';
import { EventsModule } from './events.module';

/** Recording events on PostgreSQL: with the transaction or not at all, and one gapless sequence per subject under concurrency. */
describe('event recorder on PostgreSQL', () => {
  let services: ServiceContext;
  let recorder: EventRecorder;
  let ids: { businessId: string; merchantId: string };

  beforeAll(async () => {
    services = await serviceContext([EventsModule, BusinessesModule, MerchantsModule], { poolSize: 12 });
    recorder = services.get(EventRecorder);
    const business = await services.get(BusinessService).create('Event recorder');
    const merchant = await services
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Shop', countryIso3: 'URY', approve: true });
    ids = { businessId: business.businessId, merchantId: merchant.merchantId };
  });
  afterAll(() => services.close());

  const eventsOf = (subjectId: string) =>
    services.dataSource.query<{ event_id: string; sequence: number; payload: string }[]>(
      `SELECT event_id, sequence, payload FROM event WHERE subject_id = $1 ORDER BY sequence`,
      [subjectId],
    );
  const dispatchJobs = (eventId: string) =>
    services.dataSource
      .query<unknown[]>(`SELECT 1 FROM pgboss.job WHERE name = $1 AND data->>'eventId' = $2`, [
        services.get(RuntimeSettings).webhooks.dispatchQueue,
        eventId,
      ])
      .then((rows) => rows.length);

  it('records nothing, and queues nothing, for a change that rolled back', async () => {
    const subjectId = crypto.randomUUID();
    let eventId = '';
    await expect(
      inTransaction(services.dataSource, async (manager) => {
        eventId = (
          await recorder.record(transactionOf(manager), { type: 'link.created', ...ids, subjectId, object: { linkId: subjectId } })
        ).eventId;
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await eventsOf(subjectId)).toEqual([]);
    expect(await dispatchJobs(eventId)).toBe(0);
  });

  it('commits the event as delivered bytes with its dispatch job', async () => {
    const subjectId = crypto.randomUUID();
    const recorded = await inTransaction(services.dataSource, (manager) =>
      recorder.record(transactionOf(manager), { type: 'link.used', ...ids, subjectId, object: { linkId: subjectId, amount: 12.5 } }),
    );
    const [stored] = await eventsOf(subjectId);
    expect(stored.payload).toBe(recorded.payload);
    expect(JSON.parse(stored.payload)).toEqual({
      id: recorded.eventId,
      type: 'link.used',
      createdAt: recorded.createdAt.toISOString(),
      businessId: ids.businessId,
      merchantId: ids.merchantId,
      sequence: 1,
      data: { object: { linkId: subjectId, amount: 12.5 } },
    });
    expect(await dispatchJobs(recorded.eventId)).toBe(1);
  });

  it('numbers one subject 1..n without gaps or repeats when ten transactions record at once', async () => {
    const subjectId = crypto.randomUUID();
    await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        inTransaction(services.dataSource, (manager) =>
          recorder.record(transactionOf(manager), { type: 'payment_intent.processing', ...ids, subjectId, object: { n } }),
        ),
      ),
    );
    expect((await eventsOf(subjectId)).map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('refuses an update that must find its row and does not, with or without events (nothing is written)', async () => {
    const subjectId = crypto.randomUUID();
    const update = `UPDATE event_sequence SET last = last WHERE subject_id = $1 RETURNING subject_id`;
    await expect(runChange(services.dataSource.manager, update, [subjectId], Requirement.rowFound('sequence'))).rejects.toThrow(
      'requirement failed: the sequence to update exists',
    );
    await expect(
      inTransaction(services.dataSource, (manager) =>
        recorder.recordAll(transactionOf(manager), [{ type: 'link.used', ...ids, subjectId, object: {} }], {
          sql: update,
          values: [subjectId],
          requires: Requirement.rowFound('sequence'),
        }),
      ),
    ).rejects.toThrow('requirement failed: the sequence to update exists');
    expect(await eventsOf(subjectId)).toEqual([]);
    await inTransaction(services.dataSource, (manager) =>
      recorder.record(transactionOf(manager), { type: 'link.used', ...ids, subjectId, object: {} }),
    );
    await expect(runChange(services.dataSource.manager, update, [subjectId], Requirement.rowFound('sequence'))).resolves.toBeUndefined();
  });

  it('records two subjects in one statement, each in its own sequence, and writes nothing when its guard finds no row', async () => {
    const [one, two] = [crypto.randomUUID(), crypto.randomUUID()];
    const event = (subjectId: string) => ({ type: 'link.used' as const, ...ids, subjectId, object: { subjectId } });
    await recorder.record(transactionOf(services.dataSource.manager), event(two));
    const marker = crypto.randomUUID();
    const probe = `guard_probe_${marker.slice(0, 8)}`;
    await services.dataSource.query(`CREATE TABLE ${probe} (id uuid PRIMARY KEY, taken boolean NOT NULL)`);
    await services.dataSource.query(`INSERT INTO ${probe} VALUES ($1, false)`, [marker]);
    const take = Guard.of(`UPDATE ${probe} SET taken = true WHERE id = $1 AND NOT taken RETURNING id`, [marker], {
      required: 'the probe was free',
    });
    // A requirement of another context's, with its own $1 (renumbered, as the guard's, after the values before it).
    const requires = Requirement.of('$1::uuid = ANY (SELECT id FROM guard0)', [marker], 'the probe taken is the marker');
    const recorded = await recorder.recordAll(transactionOf(services.dataSource.manager), [event(one), event(two), event(one)], {
      sql: `SELECT $1::int AS unused`,
      values: [7],
      guards: [take],
      requires,
    });
    expect(recorded.map((r) => r.sequence)).toEqual([1, 2, 2]);
    expect((await eventsOf(one)).map((row) => row.sequence)).toEqual([1, 2]);
    expect((await eventsOf(two)).map((row) => row.sequence)).toEqual([1, 2]);
    // Taken already: the statement fails and records nothing.
    await expect(
      recorder.recordAll(transactionOf(services.dataSource.manager), [event(one), event(two)], {
        sql: `SELECT $1::int AS unused`,
        values: [7],
        guards: [take],
        requires,
      }),
    ).rejects.toMatchObject({ driverError: { code: 'P0004' } });
    expect(await eventsOf(one)).toHaveLength(2);
    expect(await eventsOf(two)).toHaveLength(2);
    await services.dataSource.query(`DROP TABLE ${probe}`);
  });
});
