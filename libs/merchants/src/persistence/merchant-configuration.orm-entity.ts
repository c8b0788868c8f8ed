import type { InstallmentPolicy } from '../domain/installment-policy';
import type { RoutingRule } from '../domain/routing-rules';
import type { PayoutSchedule } from '../domain/payout-schedule';
import type { CardTestingGuardSettings } from '../domain/card-testing-guard';
import type { DunningSettings } from '../domain/dunning';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'merchant_configuration' })
export class MerchantConfigurationOrmEntity {
  @PrimaryColumn({ name: 'merchant_configuration_id', type: 'uuid' })
  merchantConfigurationId: string;

  @Column({ name: 'merchant_id', type: 'uuid', unique: true })
  merchantId: string;

  @Column({ name: 'payment_success_notification', type: 'boolean' })
  paymentSuccessNotification: boolean;

  @Column({ name: 'payment_error_notification', type: 'boolean' })
  paymentErrorNotification: boolean;

  @Column({ name: 'notification_emails', type: 'text', array: true })
  notificationEmails: string[];

  @Column({ name: 'short_name', type: 'varchar', length: 32, nullable: true })
  shortName: string | null;

  @Column({ name: 'fast_payments_enabled', type: 'boolean' })
  fastPaymentsEnabled: boolean;

  /** Null: the default schedule (DAILY). Minimums in minor units. */
  @Column({ name: 'payout_schedule', type: 'jsonb', nullable: true })
  payoutSchedule: PayoutSchedule | null;

  /** Null: no installments anywhere. Minimum installment amounts in minor units. */
  @Column({ name: 'installment_policy', type: 'jsonb', nullable: true })
  installmentPolicy: InstallmentPolicy | null;

  /** Null: no routing rules (contract §26). Amounts in minor units. */
  @Column({ type: 'jsonb', nullable: true })
  routing: RoutingRule[] | null;

  /** Null: the card-testing guard's defaults (contract §30). */
  @Column({ name: 'card_testing_guard', type: 'jsonb', nullable: true })
  cardTestingGuard: CardTestingGuardSettings | null;

  /** Null: dunning's defaults (contract §31). */
  @Column({ type: 'jsonb', nullable: true })
  dunning: DunningSettings | null;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

@Entity({ name: 'merchant_country_configuration' })
export class MerchantCountryConfigurationOrmEntity {
  @PrimaryColumn({ name: 'merchant_country_configuration_id', type: 'uuid' })
  merchantCountryConfigurationId: string;

  @Column({ name: 'merchant_id', type: 'uuid' })
  merchantId: string;

  @Column({ name: 'country_id', type: 'uuid' })
  countryId: string;

  @Column({ name: 'vat_rate_bp', type: 'integer' })
  vatRateBp: number;
}
