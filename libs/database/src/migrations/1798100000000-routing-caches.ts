import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed (`pcs_changes`) hears of two more tables that a confirmed
 * charge reads at every payment: a merchant's country processors (which it
 * offers) and its gateway accounts (where a method is routed, whose account
 * collects). Processes keep both in memory per merchant and forget them when
 * a row of the merchant changes, whoever changes it.
 */
export class RoutingCaches1798100000000 implements MigrationInterface {
  name = 'RoutingCaches1798100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE TRIGGER merchant_country_processor_changed AFTER INSERT OR UPDATE OR DELETE ON merchant_country_processor
  FOR EACH ROW EXECUTE FUNCTION notify_merchant_change('merchant-processors');
CREATE TRIGGER gateway_account_changed AFTER INSERT OR UPDATE OR DELETE ON gateway_account
  FOR EACH ROW EXECUTE FUNCTION notify_merchant_change('merchant-gateway-accounts');
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP TRIGGER gateway_account_changed ON gateway_account;
DROP TRIGGER merchant_country_processor_changed ON merchant_country_processor;
`);
  }
}
