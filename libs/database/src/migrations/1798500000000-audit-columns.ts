import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An audit entry's columns refuse no value a route or an actor can produce (contract §29).
 * `action` was varchar(64): `api:PATCH /merchant-country-processor/:merchantCountryProcessorId` (65
 * characters) and `api:POST /merchant/:merchantId/settlement-account/:currency/confirm` (67) failed
 * their write, and with it every entry written in the same group. Text now, like `email`, `target`
 * and `address` (the audit log still keeps those three to 254, 200 and 64 characters when it writes
 * them). A change of varchar to text rewrites nothing.
 */
export class AuditColumns1798500000000 implements MigrationInterface {
  name = 'AuditColumns1798500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE dashboard_audit
        ALTER COLUMN action TYPE text,
        ALTER COLUMN email TYPE text,
        ALTER COLUMN target TYPE text,
        ALTER COLUMN address TYPE text;`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE dashboard_audit
        ALTER COLUMN action TYPE varchar(64),
        ALTER COLUMN email TYPE varchar(254),
        ALTER COLUMN target TYPE varchar(200),
        ALTER COLUMN address TYPE varchar(64);`);
  }
}
