import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed (`pcs_changes`) hears of changed payers: processes keep the
 * live payers that creations read in memory, by id, and forget one when its
 * row changes or goes, whoever changes it. A new payer needs no notice: only
 * payers that were read are kept.
 */
export class PayerCache1798200000000 implements MigrationInterface {
  name = 'PayerCache1798200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE FUNCTION notify_payer_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pcs_changes', 'payer:' || OLD.payer_id);
  RETURN NULL;
END $$;
CREATE TRIGGER payer_changed AFTER UPDATE OR DELETE ON payer
  FOR EACH ROW EXECUTE FUNCTION notify_payer_change();
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP TRIGGER payer_changed ON payer;
DROP FUNCTION notify_payer_change();
`);
  }
}
