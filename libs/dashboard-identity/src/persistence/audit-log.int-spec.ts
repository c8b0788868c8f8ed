import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { auditKeyOf } from '../audit-chain';
import { AuditSealer } from '../audit-sealer';
import { AuditLog } from './audit-log';

/**
 * The audit log on PostgreSQL (contract §29): writers append without any
 * lock, one INSERT each, unsealed; the sealers of two processes (two API
 * processes) chain what waits, one at a time, into one unbroken line.
 */
describe('the audit log: lock-free writers, one sealer at a time', () => {
  const key = auditKeyOf(Buffer.from(process.env.TEST_SECRETS_MASTER_KEY!, 'base64'));
  let sources: DataSource[];

  beforeAll(async () => {
    sources = [0, 1].map(() => new DataSource({ type: 'postgres', url: process.env.TEST_DATABASE_URL, poolSize: 4 }));
    await Promise.all(sources.map((source) => source.initialize()));
  });
  afterAll(() => Promise.all(sources.map((source) => source.destroy())));

  it('commits each entry before its append resolves, and two processes’ sealers keep one chain', async () => {
    const logs = sources.map((source) => new AuditLog(source, [key]));
    const sealers = logs.map((log) => new AuditSealer(log, 20));
    sealers.forEach((sealer) => sealer.start());
    const businessId = crypto.randomUUID();
    const count = 300;
    const committedWhenResolved: boolean[] = [];
    try {
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
          const [row] = await sources[0].query('SELECT 1 FROM dashboard_audit WHERE business_id = $1 AND target = $2', [
            businessId,
            target,
          ]);
          committedWhenResolved.push(row !== undefined);
        }),
      );
    } finally {
      await Promise.all(sealers.map((sealer) => sealer.stop()));
    }
    expect(committedWhenResolved).toEqual(Array.from({ length: count }, () => true));
    await logs[1].seal();
    const rows: { sequence: string | null }[] = await sources[0].query(
      'SELECT sequence FROM dashboard_audit WHERE business_id = $1 ORDER BY sequence',
      [businessId],
    );
    expect(rows).toHaveLength(count);
    expect(rows.filter((row) => row.sequence === null)).toEqual([]);
    const verdict = await logs[0].verify(null);
    expect(verdict).toMatchObject({ ok: true });
  });

  it('appends while a sealer holds its lock (no lock shared with writers), and one refused entry fails alone', async () => {
    const log = new AuditLog(sources[1], [key]);
    await expect(new AuditLog(sources[0], []).seal()).rejects.toThrow(/needs its key/);
    const businessId = crypto.randomUUID();
    const holder = sources[0].createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await holder.query('SELECT pg_advisory_xact_lock(7202611)');
      // A sealer at work does not hold writers back; another sealer steps aside instead of waiting.
      await log.append({ businessId, userId: null, email: 'x', action: 'while sealing', result: 'succeeded' });
      expect(await log.seal()).toBe(0);
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
    const together = await Promise.allSettled([
      log.append({ businessId, userId: null, email: 'x', action: 'before it', result: 'succeeded' }),
      log.append({ businessId: 'not-a-uuid', userId: null, email: 'x', action: 'refused', result: 'succeeded' }),
      log.append({ businessId, userId: null, email: 'x', action: 'after it', result: 'refused' }),
    ]);
    expect(together.map((settled) => settled.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // Sealed by this round, or by any other sealer of this database at work meanwhile (each API process runs one).
    await log.seal();
    const rows: { action: string; sequence: string | null }[] = await sources[0].query(
      'SELECT action, sequence FROM dashboard_audit WHERE business_id = $1 ORDER BY sequence',
      [businessId],
    );
    expect(rows.map((r) => r.action).sort()).toEqual(['after it', 'before it', 'while sealing']);
    expect(rows.every((r) => r.sequence !== null)).toBe(true);
    expect(await log.verify(null)).toMatchObject({ ok: true });
  });
});
