import { bigintTransformer } from '@pcs/database';
import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'payment_intent' })
export class PaymentIntentOrmEntity {
  @PrimaryColumn({ name: 'payment_intent_id', type: 'uuid' })
  paymentIntentId: string;

  @Column({ name: 'business_id', type: 'uuid' })
  businessId: string;

  @Column({ name: 'merchant_id', type: 'uuid' })
  merchantId: string;

  @Column({ name: 'payer_id', type: 'uuid', nullable: true })
  payerId: string | null;

  @Column({ name: 'payment_instrument_id', type: 'uuid', nullable: true })
  paymentInstrumentId: string | null;

  @Column({ name: 'country_id', type: 'uuid' })
  countryId: string;

  @Column({ type: 'text' })
  origin: string;

  @Column({ name: 'payin_type', type: 'text' })
  payinType: string;

  @Column({ type: 'text' })
  status: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  amount: number;

  @Column({ name: 'tax_amount', type: 'bigint', transformer: bigintTransformer })
  taxAmount: number;

  @Column({ name: 'tip_amount', type: 'bigint', transformer: bigintTransformer })
  tipAmount: number;

  @Column({ name: 'received_amount', type: 'bigint', transformer: bigintTransformer })
  receivedAmount: number;

  @Column({ name: 'vat_rate_bp', type: 'integer' })
  vatRateBp: number;

  @Column({ name: 'exchange_rate', type: 'numeric', precision: 18, scale: 8 })
  exchangeRate: string;

  @Column({ name: 'external_reference', type: 'varchar', length: 128, nullable: true })
  externalReference: string | null;

  @Column({ name: 'external_charge_id', type: 'varchar', length: 128, nullable: true })
  externalChargeId: string | null;

  @Column({ name: 'external_invoice_id', type: 'varchar', length: 128, nullable: true })
  externalInvoiceId: string | null;

  @Column({ name: 'invoice_number', type: 'bigint', nullable: true, transformer: bigintTransformer })
  invoiceNumber: number | null;

  @Column({ name: 'invoice_email', type: 'varchar', length: 128, nullable: true })
  invoiceEmail: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  description: string | null;

  @Column({ name: 'last_payment_error', type: 'text', nullable: true })
  lastPaymentError: string | null;

  @Column({ name: 'receipt_email', type: 'varchar', length: 128, nullable: true })
  receiptEmail: string | null;

  @Column({ name: 'setup_future_usage', type: 'boolean' })
  setupFutureUsage: boolean;

  @Column({ name: 'off_session', type: 'boolean' })
  offSession: boolean;

  @Column({ type: 'jsonb', nullable: true })
  metadata: Record<string, unknown> | null;

  @Column({ name: 'link_id', type: 'uuid', nullable: true })
  linkId: string | null;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  @Column({ name: 'cancellation_reason', type: 'text', nullable: true })
  cancellationReason: string | null;

  @Column({ name: 'refunded_amount', type: 'bigint', transformer: bigintTransformer })
  refundedAmount: number;

  @Column({ name: 'disputed_amount', type: 'bigint', transformer: bigintTransformer })
  disputedAmount: number;

  /** Each dispute's id, status and amount (minor units), oldest first. */
  @Column({ type: 'jsonb' })
  disputes: { disputeId: string; status: string; amount: number; claim?: boolean; settledByRefund?: boolean }[];

  /** The installment plan it was paid in (contract §25), minor units; null: a single payment or not paid. */
  @Column({ name: 'installment_plan', type: 'jsonb', nullable: true })
  installmentPlan: {
    installments: number;
    installmentAmount: number | null;
    payerTotalAmount: number | null;
    financingFeeAmount: number;
  } | null;

  @Column({ name: 'confirmation_method', type: 'text' })
  confirmationMethod: string;

  @Column({ name: 'preferred_payment_method', type: 'text', nullable: true })
  preferredPaymentMethod: string | null;

  @Column({ name: 'preferred_instrument_type', type: 'text', nullable: true })
  preferredInstrumentType: string | null;

  @Column({ name: 'allowed_payment_methods', type: 'text', array: true, nullable: true })
  allowedPaymentMethods: string[] | null;

  @Column({ name: 'additional_info', type: 'jsonb', nullable: true })
  additionalInfo: Record<string, unknown> | null;

  @Column({ name: 'succeeded_at', type: 'timestamptz', nullable: true })
  succeededAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
