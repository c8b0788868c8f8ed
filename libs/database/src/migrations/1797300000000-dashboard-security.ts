import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * People to PCI DSS v4.0.1 (contract §22): a password changed at first
 * sign-in and never one of the last four, a second factor (a sealed TOTP
 * seed, the last time step used, single-use recovery codes), the lockout
 * after ten failures, sessions that are a step of the sign-in until it is
 * complete, and the client address in every audit entry.
 */
export class DashboardSecurity1797300000000 implements MigrationInterface {
  name = 'DashboardSecurity1797300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE dashboard_user
        ADD COLUMN must_change_password boolean NOT NULL DEFAULT false,
        ADD COLUMN failed_attempts      integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
        ADD COLUMN locked_until         timestamptz,
        ADD COLUMN mfa_secret           text,
        ADD COLUMN mfa_enrolled_at      timestamptz,
        ADD COLUMN mfa_last_step        bigint;`);
    // Every password so far was generated (user:create, a reset): each is changed at its next sign-in.
    await queryRunner.query(`UPDATE dashboard_user SET must_change_password = true;`);
    await queryRunner.query(`
      CREATE TABLE dashboard_password_history (
        user_id       uuid NOT NULL REFERENCES dashboard_user (user_id) ON DELETE CASCADE,
        password_hash varchar(200) NOT NULL,
        set_at        timestamptz NOT NULL DEFAULT clock_timestamp()
      );`);
    await queryRunner.query(`CREATE INDEX dashboard_password_history_user_idx ON dashboard_password_history (user_id, set_at DESC);`);
    await queryRunner.query(`
      INSERT INTO dashboard_password_history (user_id, password_hash, set_at)
      SELECT user_id, password_hash, password_changed_at FROM dashboard_user;`);
    await queryRunner.query(`
      CREATE TABLE dashboard_recovery_code (
        user_id   uuid NOT NULL REFERENCES dashboard_user (user_id) ON DELETE CASCADE,
        code_hash char(64) NOT NULL,
        used_at   timestamptz,
        PRIMARY KEY (user_id, code_hash)
      );`);
    await queryRunner.query(`
      ALTER TABLE dashboard_session
        ADD COLUMN stage varchar(16) NOT NULL DEFAULT 'signed-in'
          CHECK (stage IN ('code', 'enrol', 'change-password', 'signed-in'));`);
    await queryRunner.query(`ALTER TABLE dashboard_audit ADD COLUMN address varchar(64);`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE dashboard_audit DROP COLUMN address;`);
    await queryRunner.query(`ALTER TABLE dashboard_session DROP COLUMN stage;`);
    await queryRunner.query(`DROP TABLE dashboard_recovery_code;`);
    await queryRunner.query(`DROP TABLE dashboard_password_history;`);
    await queryRunner.query(`
      ALTER TABLE dashboard_user DROP COLUMN must_change_password, DROP COLUMN failed_attempts, DROP COLUMN locked_until,
        DROP COLUMN mfa_secret, DROP COLUMN mfa_enrolled_at, DROP COLUMN mfa_last_step;`);
  }
}
