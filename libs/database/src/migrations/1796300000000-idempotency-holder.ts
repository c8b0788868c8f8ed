import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which request holds an idempotency key (a random id per claim), so that a
 * request whose claim was cut off by the database going away can free its
 * own claim once the database is back, and never another request's.
 */
export class IdempotencyHolder1796300000000 implements MigrationInterface {
  name = 'IdempotencyHolder1796300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE idempotency_key ADD COLUMN holder uuid;`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE idempotency_key DROP COLUMN holder;`);
  }
}
