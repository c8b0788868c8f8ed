import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events and webhooks (contract §14). An event is written with the change
 * that causes it; `payload` is the exact JSON every delivery sends and signs,
 * so a redelivery carries the same bytes. `event_sequence` numbers each
 * subject's events (a payment intent with its refunds, a link). A webhook
 * endpoint belongs to a business (merchant_id null: all its merchants' events)
 * or to one merchant; its secrets are sealed like API secrets. A delivery is
 * one event for one endpoint; `generation` grows with each redelivery, so a
 * retry scheduled before it is recognised as stale. Every attempt is kept.
 */
export class EventsWebhooks1796100000000 implements MigrationInterface {
  name = 'EventsWebhooks1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE TABLE event (
  event_id       uuid PRIMARY KEY,
  type           varchar(64) NOT NULL,
  business_id    uuid NOT NULL REFERENCES business,
  merchant_id    uuid NOT NULL REFERENCES merchant,
  subject_id     uuid NOT NULL,
  sequence       integer NOT NULL,
  payload        text NOT NULL,
  dispatched_at  timestamptz,
  created_at     timestamptz NOT NULL
);
CREATE UNIQUE INDEX event_subject_sequence_uq ON event (subject_id, sequence);
-- The event log, newest first, for a business or one of its merchants, by type; and the retention sweep.
CREATE INDEX event_business_created_idx ON event (business_id, created_at DESC, event_id DESC);
CREATE INDEX event_merchant_created_idx ON event (merchant_id, created_at DESC, event_id DESC);
CREATE INDEX event_business_type_created_idx ON event (business_id, type, created_at DESC, event_id DESC);
CREATE INDEX event_created_idx ON event (created_at);

CREATE TABLE event_sequence (
  subject_id  uuid PRIMARY KEY,
  last        integer NOT NULL
);

CREATE TABLE webhook_endpoint (
  webhook_endpoint_id          uuid PRIMARY KEY,
  business_id                  uuid NOT NULL REFERENCES business,
  merchant_id                  uuid REFERENCES merchant,
  url                          varchar(2048) NOT NULL,
  description                  varchar(256),
  enabled_events               text[],
  disabled                     boolean NOT NULL DEFAULT false,
  disabled_reason              varchar(256),
  secret_ciphertext            text NOT NULL,
  previous_secret_ciphertext   text,
  previous_secret_expires_at   timestamptz,
  created_at                   timestamptz NOT NULL,
  updated_at                   timestamptz NOT NULL,
  deleted_at                   timestamptz
);
CREATE INDEX webhook_endpoint_business_idx ON webhook_endpoint (business_id, created_at) WHERE deleted_at IS NULL;

CREATE TABLE webhook_delivery (
  webhook_delivery_id  uuid PRIMARY KEY,
  event_id             uuid NOT NULL REFERENCES event ON DELETE CASCADE,
  webhook_endpoint_id  uuid NOT NULL REFERENCES webhook_endpoint ON DELETE CASCADE,
  url                  varchar(2048) NOT NULL,
  status               varchar(16) NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
  generation           integer NOT NULL DEFAULT 1,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  UNIQUE (event_id, webhook_endpoint_id)
);
-- The log's delivered filter: the events that still have a delivery not delivered.
CREATE INDEX webhook_delivery_undelivered_idx ON webhook_delivery (event_id) WHERE status <> 'DELIVERED';
CREATE INDEX webhook_delivery_endpoint_idx ON webhook_delivery (webhook_endpoint_id);

CREATE TABLE webhook_attempt (
  webhook_attempt_id   uuid PRIMARY KEY,
  webhook_delivery_id  uuid NOT NULL REFERENCES webhook_delivery ON DELETE CASCADE,
  at                   timestamptz NOT NULL,
  status               integer,
  error                varchar(256),
  duration_ms          integer NOT NULL
);
CREATE INDEX webhook_attempt_delivery_idx ON webhook_attempt (webhook_delivery_id, at);
`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_attempt, webhook_delivery, webhook_endpoint, event_sequence, event`);
  }
}
