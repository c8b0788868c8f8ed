import { Column, Entity, PrimaryColumn } from 'typeorm';

const bigintNumber = { to: (value: number) => value, from: (value: string | null) => (value === null ? null : Number(value)) };

@Entity({ name: 'test_clock' })
export class TestClockOrmEntity {
  @PrimaryColumn({ name: 'test_clock_id', type: 'uuid' }) testClockId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @Column({ name: 'frozen_time', type: 'timestamptz' }) frozenTime: Date;
  @Column({ type: 'text' }) status: string;
  @Column({ name: 'advancing_until', type: 'timestamptz', nullable: true }) advancingUntil: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt: Date | null;
}

@Entity({ name: 'subscription' })
export class SubscriptionOrmEntity {
  @PrimaryColumn({ name: 'subscription_id', type: 'uuid' }) subscriptionId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @Column({ name: 'payer_id', type: 'uuid' }) payerId: string;
  @Column({ name: 'payment_instrument_id', type: 'uuid' }) paymentInstrumentId: string;
  @Column({ type: 'text' }) country: string;
  @Column({ name: 'time_zone', type: 'text' }) timeZone: string;
  @Column({ type: 'bigint', transformer: bigintNumber }) amount: number;
  @Column({ type: 'text' }) currency: string;
  @Column({ type: 'text' }) interval: string;
  @Column({ name: 'interval_count', type: 'integer' }) intervalCount: number;
  @Column({ name: 'anchor_date', type: 'date' }) anchorDate: string;
  @Column({ name: 'anchor_time', type: 'time' }) anchorTime: string;
  @Column({ name: 'trial_end', type: 'timestamptz', nullable: true }) trialEnd: Date | null;
  @Column({ type: 'text' }) description: string;
  @Column({ type: 'jsonb', nullable: true }) metadata: object | null;
  @Column({ type: 'text' }) status: string;
  @Column({ name: 'test_clock_id', type: 'uuid', nullable: true }) testClockId: string | null;
  @Column({ name: 'next_period', type: 'integer' }) nextPeriod: number;
  @Column({ name: 'next_period_at', type: 'timestamptz', nullable: true }) nextPeriodAt: Date | null;
  @Column({ name: 'announced_period', type: 'integer' }) announcedPeriod: number;
  @Column({ name: 'cancel_at_period_end', type: 'boolean' }) cancelAtPeriodEnd: boolean;
  @Column({ name: 'card_expires_at', type: 'timestamptz', nullable: true }) cardExpiresAt: Date | null;
  @Column({ name: 'charge_lead_seconds', type: 'integer' }) chargeLeadSeconds: number;
  @Column({ name: 'card_expiry_noticed', type: 'boolean' }) cardExpiryNoticed: boolean;
  @Column({ name: 'canceled_at', type: 'timestamptz', nullable: true }) canceledAt: Date | null;
  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true }) endedAt: Date | null;
  @Column({ name: 'paused_at', type: 'timestamptz', nullable: true }) pausedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @Column({ type: 'integer' }) version: number;
}

@Entity({ name: 'invoice' })
export class InvoiceOrmEntity {
  @PrimaryColumn({ name: 'invoice_id', type: 'uuid' }) invoiceId: string;
  @Column({ name: 'subscription_id', type: 'uuid' }) subscriptionId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @Column({ name: 'payer_id', type: 'uuid' }) payerId: string;
  @Column({ name: 'payment_instrument_id', type: 'uuid' }) paymentInstrumentId: string;
  @Column({ name: 'test_clock_id', type: 'uuid', nullable: true }) testClockId: string | null;
  @Column({ name: 'period_number', type: 'integer' }) periodNumber: number;
  @Column({ name: 'period_start', type: 'timestamptz' }) periodStart: Date;
  @Column({ name: 'period_end', type: 'timestamptz' }) periodEnd: Date;
  @Column({ type: 'bigint', transformer: bigintNumber }) amount: number;
  @Column({ type: 'text' }) currency: string;
  @Column({ type: 'text' }) description: string;
  @Column({ type: 'text' }) status: string;
  @Column({ name: 'attempt_count', type: 'integer' }) attemptCount: number;
  @Column({ type: 'boolean' }) charging: boolean;
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true }) nextAttemptAt: Date | null;
  @Column({ name: 'final_at', type: 'timestamptz' }) finalAt: Date;
  @Column({ name: 'payment_intent_id', type: 'uuid', nullable: true }) paymentIntentId: string | null;
  @Column({ name: 'last_decline', type: 'text', nullable: true }) lastDecline: string | null;
  @Column({ name: 'decline_kind', type: 'text', nullable: true }) declineKind: string | null;
  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true }) paidAt: Date | null;
  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true }) closedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
