import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The plan a payment intent was paid in (contract §25), on the intent itself: `payment_intent.succeeded`
 * carries it and the intent's representation shows it (null: a single payment, or not paid yet).
 * `{ installments, installmentAmount, payerTotalAmount, financingFeeAmount }` in minor units, the
 * amounts null where the processor does not tell them.
 */
export class IntentInstallmentPlan1797850000000 implements MigrationInterface {
  name = 'IntentInstallmentPlan1797850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE payment_intent ADD COLUMN installment_plan jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE payment_intent DROP COLUMN installment_plan`);
  }
}
