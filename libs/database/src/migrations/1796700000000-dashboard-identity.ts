import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operations dashboard's own data (contract §18): its people, their
 * sessions and the audit log of what they did. Nothing here refers to the
 * payins tables (the dashboard reads and changes payments only through the
 * payins API); a business or merchant id is the API's id, kept as a value.
 */
export class DashboardIdentity1796700000000 implements MigrationInterface {
  name = 'DashboardIdentity1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE dashboard_user (
        user_id       uuid PRIMARY KEY,
        business_id   uuid NOT NULL,
        merchant_id   uuid,
        email         varchar(254) NOT NULL,
        role          varchar(16) NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
        password_hash varchar(200) NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        password_changed_at timestamptz NOT NULL DEFAULT now(),
        disabled_at   timestamptz
      );`);
    await queryRunner.query(`CREATE UNIQUE INDEX dashboard_user_email_idx ON dashboard_user (lower(email));`);
    await queryRunner.query(`
      CREATE TABLE dashboard_session (
        token_hash   char(64) PRIMARY KEY,
        user_id      uuid NOT NULL REFERENCES dashboard_user (user_id) ON DELETE CASCADE,
        csrf_token   char(43) NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at   timestamptz NOT NULL
      );`);
    await queryRunner.query(`CREATE INDEX dashboard_session_user_idx ON dashboard_session (user_id);`);
    await queryRunner.query(`CREATE INDEX dashboard_session_expiry_idx ON dashboard_session (expires_at);`);
    await queryRunner.query(`
      CREATE TABLE dashboard_audit (
        audit_id    bigserial PRIMARY KEY,
        at          timestamptz NOT NULL DEFAULT now(),
        business_id uuid NOT NULL,
        user_id     uuid,
        email       varchar(254) NOT NULL,
        action      varchar(64) NOT NULL,
        target      varchar(200),
        result      varchar(16) NOT NULL CHECK (result IN ('succeeded', 'refused', 'failed')),
        detail      jsonb NOT NULL DEFAULT '{}'
      );`);
    await queryRunner.query(`CREATE INDEX dashboard_audit_business_idx ON dashboard_audit (business_id, audit_id DESC);`);
    // Sign-in throttling (rate-limiter-flexible's PostgreSQL layout), per account and per address.
    await queryRunner.query(`
      CREATE TABLE dashboard_sign_in_limit (
        key    varchar(255) PRIMARY KEY,
        points integer NOT NULL DEFAULT 0,
        expire bigint
      );`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE dashboard_sign_in_limit;`);
    await queryRunner.query(`DROP TABLE dashboard_audit;`);
    await queryRunner.query(`DROP TABLE dashboard_session;`);
    await queryRunner.query(`DROP TABLE dashboard_user;`);
  }
}
