import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { auditKeyOf } from '../audit-chain';
import { AuditLog } from './audit-log';

/**
 * The audit chain's group commit on PostgreSQL: two writers (two API
 * processes) append hundreds of entries at once; every one is committed
 * when its append resolves, the chain stays one unbroken line, and the
 * entries went in far fewer transactions than there are entries.
 */
describe('the audit log appends entries in groups', () => {
  const key = auditKeyOf(Buffer.from(process.env.TEST_SECRETS_MASTER_KEY!, 'base64'));
  let sources: DataSource[];

  beforeAll(async () => {
    sources = [0, 1].map(() => new DataSource({ type: 'postgres', url: process.env.TEST_DATABASE_URL, poolSize: 4 }));
    await Promise.all(sources.map((source) => source.initialize()));
  });
  afterAll(() => Promise.all(sources.map((source) => source.destroy())));

  it('commits each entry before its append resolves and keeps one chain across writers', async () => {
    const logs = sources.map((source) => new AuditLog(source, [key]));
    const businessId = crypto.randomUUID();
    const count = 300;
    const committedWhenResolved: boolean[] = [];
    await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const target = `entry-${i}`;
        await logs[i % 2].append({
          businessId,
          userId: null,
          email: 'api-key:test',
          action: 'api:POST /test',
          target,
          result: 'succeeded',
        });
        const [row] = await sources[0].query('SELECT 1 FROM dashboard_audit WHERE business_id = $1 AND target = $2', [businessId, target]);
        committedWhenResolved.push(row !== undefined);
      }),
    );
    expect(committedWhenResolved).toEqual(Array.from({ length: count }, () => true));

    const rows: { sequence: string; at: Date }[] = await sources[0].query(
      'SELECT sequence, at FROM dashboard_audit WHERE business_id = $1 ORDER BY sequence',
      [businessId],
    );
    expect(rows).toHaveLength(count);
    // Entries of one write share its time: far fewer writes than entries.
    const writes = new Set(rows.map((row) => row.at.getTime())).size;
    expect(writes).toBeLessThan(count / 3);

    const verdict = await logs[0].verify(null);
    expect(verdict.ok).toBe(true);
  });

  it('refuses to append without a key, and an entry the database refuses fails alone, never the entries of its group', async () => {
    await expect(
      new AuditLog(sources[0], []).append({ businessId: crypto.randomUUID(), userId: null, email: 'x', action: 'a', result: 'succeeded' }),
    ).rejects.toThrow(/needs its key/);
    const log = new AuditLog(sources[1], [key]);
    // An entry the database refuses (a business id that is no uuid) fails its write; the next append still lands.
    const bad = log.append({ businessId: 'not-a-uuid', userId: null, email: 'x', action: 'a', result: 'succeeded' });
    await expect(bad).rejects.toThrow();
    const businessId = crypto.randomUUID();
    await log.append({ businessId, userId: null, email: 'x', action: 'after', result: 'succeeded' });
    const [row] = await sources[0].query('SELECT action FROM dashboard_audit WHERE business_id = $1', [businessId]);
    expect(row.action).toBe('after');
    // Asked together (one group): the refused entry fails, the others are written, chained.
    const beside = crypto.randomUUID();
    const together = await Promise.allSettled([
      log.append({ businessId: beside, userId: null, email: 'x', action: 'before it', result: 'succeeded' }),
      log.append({ businessId: 'still-not-a-uuid', userId: null, email: 'x', action: 'refused', result: 'succeeded' }),
      log.append({ businessId: beside, userId: null, email: 'x', action: 'after it', result: 'refused' }),
    ]);
    expect(together.map((settled) => settled.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const rows = await sources[0].query('SELECT action FROM dashboard_audit WHERE business_id = $1 ORDER BY sequence', [beside]);
    expect(rows.map((r: { action: string }) => r.action)).toEqual(['before it', 'after it']);
    expect(await log.verify(null)).toMatchObject({ ok: true });
  });
});
