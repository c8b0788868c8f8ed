import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Restricted keys (contract §29): a credential's scopes, or null for a full credential (every
 * credential issued before, and every one `business:create` and `merchant:create` issue). A
 * restricted credential holds at least one scope, each one of the five the contract names.
 */
export class RestrictedKeys1798700000000 implements MigrationInterface {
  name = 'RestrictedKeys1798700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE api_credential
        ADD COLUMN scopes text[]
          CONSTRAINT api_credential_scopes_check CHECK (
            scopes IS NULL OR (cardinality(scopes) > 0
              AND scopes <@ ARRAY['read', 'payments:write', 'merchants:write', 'money:write', 'secrets:read']::text[]));`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_credential DROP COLUMN scopes;`);
  }
}
