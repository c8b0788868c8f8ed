import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signing version 2 (contract §17): a credential may require it, and every
 * mutating v2 request (api-key, signature) is accepted once, across processes
 * and restarts, while its timestamp could still be accepted.
 */
export class SigningV21796500000000 implements MigrationInterface {
  name = 'SigningV21796500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_credential ADD COLUMN require_timestamp boolean NOT NULL DEFAULT false;`);
    await queryRunner.query(`
      CREATE TABLE signed_request (
        api_key    varchar(64) NOT NULL,
        signature  char(64) NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (api_key, signature)
      );`);
    await queryRunner.query(`CREATE INDEX signed_request_expiry_idx ON signed_request (expires_at);`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE signed_request;`);
    await queryRunner.query(`ALTER TABLE api_credential DROP COLUMN require_timestamp;`);
  }
}
