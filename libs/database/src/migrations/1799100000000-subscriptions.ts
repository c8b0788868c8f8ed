import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recurring payments (contract §31): a merchant's dunning settings (null: the
 * defaults); test clocks; subscriptions, each charging a saved instrument of its
 * payer every `interval_count` intervals from its anchor in the merchant's time
 * zone; and one invoice per subscription and period (the unique key that makes
 * the scheduler idempotent: a period is invoiced once, whoever gets there first).
 */
export class Subscriptions1799100000000 implements MigrationInterface {
  name = 'Subscriptions1799100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
ALTER TABLE merchant_configuration ADD COLUMN dunning jsonb;

CREATE TABLE test_clock (
  test_clock_id uuid PRIMARY KEY,
  business_id   uuid NOT NULL,
  merchant_id   uuid NOT NULL REFERENCES merchant (merchant_id),
  frozen_time   timestamptz NOT NULL,
  status        text NOT NULL CHECK (status IN ('READY', 'ADVANCING', 'DELETED')),
  advancing_until timestamptz,
  created_at    timestamptz NOT NULL,
  deleted_at    timestamptz
);
CREATE INDEX test_clock_merchant ON test_clock (merchant_id, created_at DESC);

CREATE TABLE subscription (
  subscription_id       uuid PRIMARY KEY,
  business_id           uuid NOT NULL,
  merchant_id           uuid NOT NULL REFERENCES merchant (merchant_id),
  payer_id              uuid NOT NULL REFERENCES payer (payer_id),
  payment_instrument_id uuid NOT NULL REFERENCES payment_instrument (payment_instrument_id),
  country               text NOT NULL,
  time_zone             text NOT NULL,
  amount                bigint NOT NULL CHECK (amount > 0),
  currency              text NOT NULL,
  interval              text NOT NULL CHECK (interval IN ('DAY', 'WEEK', 'MONTH', 'YEAR')),
  interval_count        integer NOT NULL CHECK (interval_count BETWEEN 1 AND 365),
  anchor_date           date NOT NULL,
  anchor_time           time NOT NULL,
  trial_end             timestamptz,
  description           text NOT NULL,
  metadata              jsonb,
  status                text NOT NULL CHECK (status IN ('TRIALING', 'ACTIVE', 'PAST_DUE', 'UNPAID', 'CANCELED', 'PAUSED')),
  test_clock_id         uuid REFERENCES test_clock (test_clock_id),
  next_period           integer NOT NULL DEFAULT 0 CHECK (next_period >= 0),
  next_period_at        timestamptz,
  announced_period      integer NOT NULL DEFAULT -1,
  cancel_at_period_end  boolean NOT NULL DEFAULT false,
  canceled_at           timestamptz,
  ended_at              timestamptz,
  paused_at             timestamptz,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  version               integer NOT NULL DEFAULT 1
);
CREATE INDEX subscription_merchant ON subscription (business_id, merchant_id, created_at DESC, subscription_id DESC);
CREATE INDEX subscription_payer ON subscription (payer_id);
CREATE INDEX subscription_due ON subscription (next_period_at) WHERE next_period_at IS NOT NULL AND test_clock_id IS NULL;
CREATE INDEX subscription_clock ON subscription (test_clock_id) WHERE test_clock_id IS NOT NULL;

CREATE TABLE invoice (
  invoice_id            uuid PRIMARY KEY,
  subscription_id       uuid NOT NULL REFERENCES subscription (subscription_id),
  business_id           uuid NOT NULL,
  merchant_id           uuid NOT NULL,
  payer_id              uuid NOT NULL,
  payment_instrument_id uuid NOT NULL,
  test_clock_id         uuid,
  period_number         integer NOT NULL CHECK (period_number >= 0),
  period_start          timestamptz NOT NULL,
  period_end            timestamptz NOT NULL CHECK (period_end > period_start),
  amount                bigint NOT NULL CHECK (amount > 0),
  currency              text NOT NULL,
  description           text NOT NULL,
  status                text NOT NULL CHECK (status IN ('OPEN', 'PAID', 'UNCOLLECTIBLE', 'VOID')),
  attempt_count         integer NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
  charging              boolean NOT NULL DEFAULT false,
  next_attempt_at       timestamptz,
  final_at              timestamptz NOT NULL,
  payment_intent_id     uuid,
  last_decline          text,
  decline_kind          text CHECK (decline_kind IN ('SOFT', 'HARD')),
  paid_at               timestamptz,
  closed_at             timestamptz,
  created_at            timestamptz NOT NULL,
  updated_at            timestamptz NOT NULL,
  UNIQUE (subscription_id, period_number),
  CHECK ((status = 'OPEN') = (closed_at IS NULL)),
  CHECK (status <> 'PAID' OR paid_at IS NOT NULL)
);
CREATE INDEX invoice_subscription ON invoice (subscription_id, period_number DESC);
CREATE INDEX invoice_merchant ON invoice (business_id, merchant_id, created_at DESC, invoice_id DESC);
CREATE INDEX invoice_due ON invoice ((CASE WHEN charging THEN next_attempt_at ELSE LEAST(next_attempt_at, final_at) END))
  WHERE status = 'OPEN' AND test_clock_id IS NULL;
CREATE INDEX invoice_clock ON invoice (test_clock_id) WHERE status = 'OPEN' AND test_clock_id IS NOT NULL;
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP TABLE invoice;
DROP TABLE subscription;
DROP TABLE test_clock;
ALTER TABLE merchant_configuration DROP COLUMN dunning;
`);
  }
}
