import { MigrationInterface, QueryRunner } from 'typeorm';

/** The sandbox gateway remembers where to send the payer back after a decision (contract §10). */
export class SandboxReturnUrl1795700000000 implements MigrationInterface {
  name = 'SandboxReturnUrl1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sandbox_gateway_session ADD COLUMN return_url varchar(2048);`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sandbox_gateway_session DROP COLUMN return_url;`);
  }
}
