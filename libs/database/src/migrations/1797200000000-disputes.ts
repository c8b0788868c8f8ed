import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Disputes and chargebacks (contract §21): the dispute, one per processor
 * case, its evidence files in a table of their own (the bytes are read only
 * to send them), and what the payment intent shows of its disputes (its
 * disputed amount, which no refund may reach into, and a summary of each).
 */
export class Disputes1797200000000 implements MigrationInterface {
  name = 'Disputes1797200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE TABLE dispute (
  dispute_id          uuid PRIMARY KEY,
  business_id         uuid NOT NULL,
  merchant_id         uuid NOT NULL,
  payment_intent_id   uuid NOT NULL,
  -- The approved collection the payer's bank took back (a payin of the ledger).
  charge_id           uuid NOT NULL,
  currency            char(3) NOT NULL,
  amount              bigint NOT NULL CHECK (amount > 0),
  reason              text NOT NULL CHECK (reason IN ('FRAUDULENT', 'PRODUCT_NOT_RECEIVED', 'PRODUCT_UNACCEPTABLE', 'DUPLICATE',
                                                      'CREDIT_NOT_PROCESSED', 'SUBSCRIPTION_CANCELED', 'GENERAL')),
  status              text NOT NULL CHECK (status IN ('NEEDS_RESPONSE', 'UNDER_REVIEW', 'WON', 'LOST', 'ACCEPTED')),
  evidence_due_by     timestamptz,
  processor           text NOT NULL CHECK (processor IN ('SANDBOX', 'MERCADO_PAGO', 'DLOCAL')),
  processor_reference varchar(128) NOT NULL,
  -- A submission to the processor under way holds the dispute until then (a crash mid-way frees it at this time).
  submitting_until    timestamptz,
  submitted_at        timestamptz,
  closed_at           timestamptz,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  -- Repeated notifications of one case open one dispute.
  CONSTRAINT dispute_processor_case UNIQUE (processor, processor_reference),
  CONSTRAINT dispute_closed CHECK ((status IN ('WON', 'LOST', 'ACCEPTED')) = (closed_at IS NOT NULL))
);
CREATE INDEX dispute_merchant_idx ON dispute (merchant_id, created_at DESC, dispute_id DESC);
CREATE INDEX dispute_business_idx ON dispute (business_id, created_at DESC, dispute_id DESC);
CREATE INDEX dispute_intent_idx ON dispute (payment_intent_id, created_at);

-- Evidence files, beside the dispute rather than in it: lists and reads of disputes never load the bytes.
CREATE TABLE dispute_evidence (
  evidence_id  uuid PRIMARY KEY,
  dispute_id   uuid NOT NULL REFERENCES dispute (dispute_id),
  -- The file's place among the dispute's, in upload order: at most five, whatever the races.
  file_number  smallint NOT NULL CHECK (file_number BETWEEN 1 AND 5),
  file_name    varchar(255) NOT NULL,
  content_type text NOT NULL CHECK (content_type IN ('application/pdf', 'image/png', 'image/jpeg')),
  size         integer NOT NULL CHECK (size > 0),
  sha256       char(64) NOT NULL,
  content      bytea NOT NULL CHECK (octet_length(content) = size),
  uploaded_at  timestamptz NOT NULL,
  -- When the processor took it (Mercado Pago's documentation upload, the sandbox).
  sent_at      timestamptz,
  CONSTRAINT dispute_evidence_number UNIQUE (dispute_id, file_number)
);
-- PDFs and images are compressed already: stored out of line as they are.
ALTER TABLE dispute_evidence ALTER COLUMN content SET STORAGE EXTERNAL;

ALTER TABLE payment_intent
  ADD COLUMN disputed_amount bigint NOT NULL DEFAULT 0 CHECK (disputed_amount >= 0),
  ADD COLUMN disputes jsonb NOT NULL DEFAULT '[]';
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE payment_intent DROP COLUMN disputes, DROP COLUMN disputed_amount;
DROP TABLE dispute_evidence, dispute;
`);
  }
}
