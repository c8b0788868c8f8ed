import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in tells nothing (contract §30): an email no person has is counted and locked exactly as a
 * person's account is (dashboard_user.failed_attempts and locked_until), in a row of its own keyed
 * by a keyed hash of the email (never the email itself), so that "locked" is no sign that an
 * account exists. Rows whose lock has ended are purged with the sessions.
 */
export class SignInWithoutEnumeration1798800000000 implements MigrationInterface {
  name = 'SignInWithoutEnumeration1798800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE dashboard_unknown_sign_in (
        email_key       char(64) PRIMARY KEY,
        failed_attempts int NOT NULL DEFAULT 0,
        locked_until    timestamptz,
        -- Whether the last attempt came while the lock held (and was refused uncounted), as beginAttempt answers.
        refused         boolean NOT NULL DEFAULT false,
        last_attempt_at timestamptz NOT NULL DEFAULT now()
      );`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE dashboard_unknown_sign_in;`);
  }
}
