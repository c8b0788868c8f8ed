import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a refund reads with its payment intent (RefundRecords): the intent's
 * latest approved collection and its refunds not final yet. Both were found
 * through payin_intent_idx by walking every payin of the intent, newest
 * first — a walk that grew with each refund. These partial indexes hold only
 * those rows: an approved collection stays one, and a refund leaves the
 * second as soon as it is final.
 */
export class RefundReads1796900000000 implements MigrationInterface {
  name = 'RefundReads1796900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE INDEX payin_intent_approved_charge_idx ON payin (payment_intent_id, created_at)
  WHERE transaction_type = 'PAYIN' AND status = 'APPROVED';
CREATE INDEX payin_intent_open_refund_idx ON payin (payment_intent_id, created_at)
  WHERE transaction_type = 'REFUND' AND status IN ('PENDING', 'SCHEDULED');
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX payin_intent_approved_charge_idx, payin_intent_open_refund_idx;`);
  }
}
