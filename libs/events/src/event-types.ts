/** Every event type (contracts §14, §19, §21, §30 and §31), in the order the event log documents them. */
export const EVENT_TYPES = [
  'payment_intent.created',
  'payment_intent.requires_action',
  'payment_intent.processing',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'payment_intent.partially_refunded',
  'payment_intent.refunded',
  'refund.created',
  'refund.succeeded',
  'refund.failed',
  'dispute.created',
  'dispute.updated',
  'dispute.won',
  'dispute.lost',
  'dispute.accepted',
  'link.created',
  'link.used',
  'link.deleted',
  'payout.created',
  'payout.in_transit',
  'payout.paid',
  'payout.failed',
  'payout.canceled',
  'payout.returned',
  'balance.available',
  'settlement_account.updated',
  'reconciliation.discrepancy',
  'processor.degraded',
  'card_testing.suspected',
  'payment_instrument.created',
  'subscription.created',
  'subscription.updated',
  'subscription.canceled',
  'invoice.created',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.upcoming',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}

/** How long events (and their delivery log) are kept. */
export const EVENT_RETENTION_DAYS = 30;

/** An event as stored and delivered: `payload` is the exact JSON body every delivery sends and signs. */
export interface RecordedEvent {
  readonly eventId: string;
  readonly type: EventType;
  readonly businessId: string;
  readonly merchantId: string;
  readonly sequence: number;
  readonly createdAt: Date;
  readonly payload: string;
  /**
   * The id (xid) of the transaction that recorded it, and wrote the change it
   * announces: a row that change wrote still has it as its `xmin` until
   * anything else writes the row, so a later write can be guarded on it.
   */
  readonly writtenIn: string;
}
