import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * People (contract §30): when a person stopped being an admin. A current admin, or one within 30
 * days of this, has a password or second factor reset by the operator's command only — an admin
 * could otherwise demote another, reset them, sign in as them and promote them back.
 */
export class RecentAdmins1798900000000 implements MigrationInterface {
  name = 'RecentAdmins1798900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE dashboard_user ADD COLUMN admin_until timestamptz;`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE dashboard_user DROP COLUMN admin_until;`);
  }
}
