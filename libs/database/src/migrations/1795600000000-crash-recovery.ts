import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What coming back from a crash needs (issue 7):
 * - payins that wait on a gateway carry the time of their next reconciliation;
 * - the sandbox gateway remembers every request by the id we gave it, so a
 *   retried request is answered with its first outcome, and a request it never
 *   received can be voided (refused for good) when we ask about it;
 * - idempotency keys in progress hold a lease, so a request that died frees
 *   its key within a minute;
 * - a confirmed manual refund remembers the request that confirmed it.
 */
export class CrashRecovery1795600000000 implements MigrationInterface {
  name = 'CrashRecovery1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE payin
  ADD COLUMN reconcile_at timestamptz,
  ADD COLUMN confirmed_by_operation uuid;
UPDATE payin SET reconcile_at = created_at + interval '30 seconds'
  WHERE status = 'PENDING' AND (concept_code = 'REFUND' OR (transaction_type = 'PAYIN' AND payment_intent_initiator = 'MERCHANT'));
UPDATE payin SET reconcile_at = now() WHERE status = 'SCHEDULED';
CREATE INDEX payin_reconcile_idx ON payin (reconcile_at) WHERE status IN ('PENDING', 'SCHEDULED') AND reconcile_at IS NOT NULL;
CREATE UNIQUE INDEX payin_confirmed_by_operation_idx ON payin (confirmed_by_operation) WHERE confirmed_by_operation IS NOT NULL;

CREATE TABLE sandbox_gateway_request (
  request_id  uuid PRIMARY KEY,
  -- NULL: the request never reached the sandbox and was voided when asked about.
  reference   varchar(64) REFERENCES sandbox_gateway_session,
  created_at  timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE idempotency_key ADD COLUMN locked_until timestamptz;
UPDATE idempotency_key SET locked_until = created_at + interval '1 minute' WHERE state = 'IN_PROGRESS';
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE idempotency_key DROP COLUMN locked_until;
DROP TABLE sandbox_gateway_request;
ALTER TABLE payin DROP COLUMN reconcile_at, DROP COLUMN confirmed_by_operation;`);
  }
}
