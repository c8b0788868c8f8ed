import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signing version 3 (contract §29).
 *
 * - `api_credential.min_signature_version` (1, 2 or 3): the lowest signing version the pair accepts,
 *   set by `credentials:require-version`. It replaces `require_timestamp` (true was "version 2 at
 *   least"), whose pairs keep their floor.
 * - `signed_request.signature` holds, for a version-3 request, the SHA-256 of its nonce (`n:` and
 *   the nonce): a nonce is accepted once per api-key, every method included, until its `created`
 *   can no longer be accepted; for version 2 it still holds the signature (mutating requests).
 */
export class SigningV31798400000000 implements MigrationInterface {
  name = 'SigningV31798400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE api_credential
        ADD COLUMN min_signature_version smallint NOT NULL DEFAULT 1
          CONSTRAINT api_credential_min_signature_version_check CHECK (min_signature_version BETWEEN 1 AND 3);`);
    await queryRunner.query(`UPDATE api_credential SET min_signature_version = 2 WHERE require_timestamp;`);
    await queryRunner.query(`ALTER TABLE api_credential DROP COLUMN require_timestamp;`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_credential ADD COLUMN require_timestamp boolean NOT NULL DEFAULT false;`);
    await queryRunner.query(`UPDATE api_credential SET require_timestamp = min_signature_version >= 2;`);
    await queryRunner.query(`ALTER TABLE api_credential DROP COLUMN min_signature_version;`);
  }
}
