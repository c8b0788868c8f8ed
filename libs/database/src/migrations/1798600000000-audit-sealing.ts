import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit entry is written in the change's own transaction, unsealed, and one sealer chains it
 * later (contract §29): a request adds one INSERT and takes no lock every writer shares. The
 * append-only trigger therefore lets an entry be sealed once — its place, HMAC and key id set where
 * they were empty, nothing else touched — and refuses every other change, as before. The runtime
 * role gets UPDATE on those three columns only (migrate.ts). An index finds what waits for sealing.
 */
export class AuditSealing1798600000000 implements MigrationInterface {
  name = 'AuditSealing1798600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION dashboard_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          IF OLD.sequence IS NULL AND NEW.sequence IS NOT NULL
             AND NEW.audit_id = OLD.audit_id AND NEW.at = OLD.at AND NEW.business_id = OLD.business_id
             AND NEW.user_id IS NOT DISTINCT FROM OLD.user_id AND NEW.email = OLD.email AND NEW.action = OLD.action
             AND NEW.target IS NOT DISTINCT FROM OLD.target AND NEW.result = OLD.result AND NEW.detail = OLD.detail
             AND NEW.address IS NOT DISTINCT FROM OLD.address THEN
            RETURN NEW;
          END IF;
        END IF;
        RAISE EXCEPTION 'the audit log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$;`);
    await queryRunner.query(`CREATE INDEX dashboard_audit_unsealed_idx ON dashboard_audit (audit_id) WHERE sequence IS NULL;`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX dashboard_audit_unsealed_idx;`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION dashboard_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$;`);
  }
}
