import { queryPrepared } from '@pcs/database';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';

/** How long a key answers its first response again (contract §8). */
const RETENTION = '24 hours';

/** A key's row as another request left it. */
export interface HeldKey {
  request_hash: string;
  state: 'IN_PROGRESS' | 'DONE';
  response_status: number | null;
  response_body: string | null;
}

/**
 * The Idempotency-Key records (contract §8) in PostgreSQL: a key taken by one request at a time under
 * a lease, its response kept for a day. The interceptor (idempotency.ts) decides; this reads and writes.
 */
export class IdempotencyKeys {
  constructor(
    private readonly dataSource: DataSource,
    private readonly leaseSeconds: number,
  ) {}

  /**
   * Takes the key for this request, in one statement, and returns when the
   * key was first taken; otherwise (`claimedAt` null: another live request
   * holds it, or it is done) the key's row as it was, if it was there. A key
   * past its 24 hours is taken as new (new time, new request); a key still
   * IN PROGRESS past its lease was held by a request that died: the same
   * request takes it over, keeping its time. A few other expired keys are
   * deleted by the same statement, so the table holds about a day of keys.
   */
  async claim(scope: string, key: string, hash: string, holder: string): Promise<{ claimedAt: Date | null; held: HeldKey | null }> {
    const [row] = await queryPrepared<{ claimed_at: Date | null } & Partial<HeldKey>>(
      this.dataSource.manager,
      `WITH purged AS (
         DELETE FROM idempotency_key WHERE ctid IN (
           SELECT ctid FROM idempotency_key WHERE expires_at < now() AND NOT (scope = $1 AND key = $2) LIMIT 20 FOR UPDATE SKIP LOCKED)
       ), claimed AS (
         INSERT INTO idempotency_key AS k (scope, key, request_hash, state, locked_until, expires_at, holder)
         VALUES ($1, $2, $3, 'IN_PROGRESS', now() + $4::interval, now() + interval '${RETENTION}', $5)
         ON CONFLICT (scope, key) DO UPDATE SET
           locked_until = EXCLUDED.locked_until,
           holder = EXCLUDED.holder,
           request_hash = CASE WHEN k.expires_at < now() THEN EXCLUDED.request_hash ELSE k.request_hash END,
           state = CASE WHEN k.expires_at < now() THEN 'IN_PROGRESS' ELSE k.state END,
           response_status = CASE WHEN k.expires_at < now() THEN NULL ELSE k.response_status END,
           response_body = CASE WHEN k.expires_at < now() THEN NULL ELSE k.response_body END,
           created_at = CASE WHEN k.expires_at < now() THEN now() ELSE k.created_at END,
           expires_at = CASE WHEN k.expires_at < now() THEN EXCLUDED.expires_at ELSE k.expires_at END
         WHERE k.expires_at < now()
            OR (k.request_hash = EXCLUDED.request_hash AND k.state = 'IN_PROGRESS' AND k.locked_until <= now())
         RETURNING created_at
       )
       SELECT c.created_at AS claimed_at, h.request_hash, h.state, h.response_status, h.response_body
         FROM (SELECT 1) AS one
         LEFT JOIN claimed c ON true
         LEFT JOIN idempotency_key h ON c.created_at IS NULL AND h.scope = $1 AND h.key = $2 AND h.expires_at >= now()`,
      [scope, key, hash, `${this.leaseSeconds} seconds`, holder],
    );
    return {
      claimedAt: row.claimed_at,
      held: row.request_hash ? (row as HeldKey) : null,
    };
  }

  /**
   * Frees the key this request holds (`holder`) after it failed, so that its
   * retry need not wait for the lease. When the database is what failed, the
   * key is freed as soon as it answers again: tried in the background with a
   * growing pause while the lease lasts (past the lease it is free anyway).
   * A claim another request made meanwhile is never touched.
   */
  async release(scope: string, key: string, holder: string): Promise<void> {
    const free = () =>
      this.dataSource
        .query(`UPDATE idempotency_key SET locked_until = now() WHERE scope = $1 AND key = $2 AND state = 'IN_PROGRESS' AND holder = $3`, [
          scope,
          key,
          holder,
        ])
        .then(
          () => true,
          () => false,
        );
    if (await free()) return;
    const until = Date.now() + this.leaseSeconds * 1000;
    void (async () => {
      for (let pause = 250; Date.now() < until && !(await free()); pause = Math.min(pause * 2, 2_000)) await sleep(pause);
    })();
  }

  async finish(scope: string, key: string, status: number, body: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_key SET state = 'DONE', locked_until = NULL, response_status = $3, response_body = $4 WHERE scope = $1 AND key = $2`,
      [scope, key, status, body],
    );
  }
}
