import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Installments (contract §25): the merchant's policy per country in its configuration (null: one
 * installment everywhere).
 */
export class Installments1797800000000 implements MigrationInterface {
  name = 'Installments1797800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE merchant_configuration ADD COLUMN installment_policy jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE merchant_configuration DROP COLUMN installment_policy`);
  }
}
