import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The processor that stores a saved card (contract §31): the card is charged there only, whatever the merchant's
 * routing says later (null: an instrument whose card no processor stores for us; routing decides as before).
 */
export class SavedCardProcessor1799300000000 implements MigrationInterface {
  name = 'SavedCardProcessor1799300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE payment_instrument ADD COLUMN processor text CHECK (processor ~ '^[A-Z][A-Z_]*$')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE payment_instrument DROP COLUMN processor`);
  }
}
