import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate limits (contract §17): the counters of rate-limiter-flexible's
 * PostgreSQL store (its own table layout: key, points, expire in epoch
 * milliseconds), shared by every process. UNLOGGED: a counter is worth a
 * second at most, so it is not written to the WAL (cheaper on every request);
 * a crash of the server empties the table, which only starts every window
 * afresh. Updated in place on every request: room on each page for HOT updates.
 */
export class RateLimits1796600000000 implements MigrationInterface {
  name = 'RateLimits1796600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE UNLOGGED TABLE rate_limit (
        key    varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      ) WITH (fillfactor = 50);`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE rate_limit;`);
  }
}
