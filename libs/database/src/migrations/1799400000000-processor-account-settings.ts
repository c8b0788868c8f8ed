import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a processor's account says besides its secrets (contract §31): settings a merchant declares and the API
 * answers in full, such as Mercado Pago's public key (its card fields in the payer's browser) and whether the
 * account has automatic payments (`offSessionEnabled`: saved cards charged without their security code).
 */
export class ProcessorAccountSettings1799400000000 implements MigrationInterface {
  name = 'ProcessorAccountSettings1799400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE gateway_account ADD COLUMN settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(settings) = 'object')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE gateway_account DROP COLUMN settings`);
  }
}
