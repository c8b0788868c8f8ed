import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Routing and failover across processors (contract §26).
 *
 * - The merchant's routing rules, first match wins (null: none, each method to its one processor).
 * - Success rates per processor, method and country read the attempts of the last day: an index on
 *   the attempts by creation time (refunds left out) keeps that read to the day's rows.
 */
export class Routing1797900000000 implements MigrationInterface {
  name = 'Routing1797900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE merchant_configuration ADD COLUMN routing jsonb;
CREATE INDEX payin_attempt_created_idx ON payin (created_at) WHERE transaction_type = 'PAYIN' AND gateway IS NOT NULL;
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP INDEX payin_attempt_created_idx;
ALTER TABLE merchant_configuration DROP COLUMN routing;
`);
  }
}
