import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'b2b_checkout' })
export class B2bCheckoutOrmEntity {
  @PrimaryColumn({ name: 'payment_intent_id', type: 'uuid' })
  paymentIntentId: string;

  @Column({ type: 'varchar', length: 64 })
  reference: string;

  @Column({ name: 'credential_id', type: 'uuid' })
  credentialId: string;

  @Column({ name: 'redirect_url', type: 'varchar', length: 2048 })
  redirectUrl: string;

  @Column({ name: 'include_all_payment_methods', type: 'boolean' })
  includeAllPaymentMethods: boolean;

  @Column({ name: 'invoice_details', type: 'jsonb', nullable: true })
  invoiceDetails: Record<string, unknown> | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
