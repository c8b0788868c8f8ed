import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log proves its own integrity (contract §22, PCI DSS 10.3): each
 * entry's place in one chain and its HMAC (keyed outside the database, the
 * key's short id beside it), and a log the database itself keeps
 * append-only: UPDATE, DELETE and TRUNCATE are refused for every role that
 * does not own the triggers away. Entries written before this migration
 * have no place in the chain and stay first.
 */
export class AuditChain1797400000000 implements MigrationInterface {
  name = 'AuditChain1797400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE dashboard_audit
        ADD COLUMN sequence bigint UNIQUE CHECK (sequence > 0),
        ADD COLUMN hmac     char(64),
        ADD COLUMN key_id   char(8),
        ADD CONSTRAINT dashboard_audit_chained CHECK ((sequence IS NULL) = (hmac IS NULL) AND (hmac IS NULL) = (key_id IS NULL));`);
    await queryRunner.query(`
      CREATE FUNCTION dashboard_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$;`);
    await queryRunner.query(`
      CREATE TRIGGER dashboard_audit_no_change BEFORE UPDATE OR DELETE ON dashboard_audit
        FOR EACH ROW EXECUTE FUNCTION dashboard_audit_append_only();`);
    await queryRunner.query(`
      CREATE TRIGGER dashboard_audit_no_truncate BEFORE TRUNCATE ON dashboard_audit
        FOR EACH STATEMENT EXECUTE FUNCTION dashboard_audit_append_only();`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER dashboard_audit_no_truncate ON dashboard_audit;`);
    await queryRunner.query(`DROP TRIGGER dashboard_audit_no_change ON dashboard_audit;`);
    await queryRunner.query(`DROP FUNCTION dashboard_audit_append_only();`);
    await queryRunner.query(
      `ALTER TABLE dashboard_audit DROP CONSTRAINT dashboard_audit_chained, DROP COLUMN key_id, DROP COLUMN hmac, DROP COLUMN sequence;`,
    );
  }
}
