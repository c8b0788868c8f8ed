import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A credential's secret rotated on the same key (contract §22): the previous
 * secret kept sealed beside the new one until its grace ends (two at most),
 * and the last use of each, to the minute, in a table of its own (a use
 * writes at most once a minute per secret and never touches the credential's
 * row, whose changes every process listens to).
 */
export class CredentialSecrets1797500000000 implements MigrationInterface {
  name = 'CredentialSecrets1797500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE api_credential
        ADD COLUMN previous_secret_ciphertext text,
        ADD COLUMN previous_secret_expires_at timestamptz,
        ADD CONSTRAINT api_credential_previous_secret CHECK ((previous_secret_ciphertext IS NULL) = (previous_secret_expires_at IS NULL));`);
    await queryRunner.query(`
      CREATE TABLE api_credential_use (
        credential_id uuid NOT NULL REFERENCES api_credential (credential_id) ON DELETE CASCADE,
        secret        varchar(8) NOT NULL CHECK (secret IN ('current', 'previous')),
        used_at       timestamptz NOT NULL,
        PRIMARY KEY (credential_id, secret)
      );`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE api_credential_use;`);
    await queryRunner.query(
      `ALTER TABLE api_credential DROP CONSTRAINT api_credential_previous_secret, DROP COLUMN previous_secret_expires_at, DROP COLUMN previous_secret_ciphertext;`,
    );
  }
}
