import { bigintTransformer } from '@pcs/database';
import type { SandboxInstallmentOffer } from './sandbox-installments';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The sandbox gateway's own record of a session, as a real gateway keeps on its side. */
@Entity({ name: 'sandbox_gateway_session' })
export class SandboxSessionOrmEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 }) reference: string;
  @Column({ type: 'text' }) kind: 'CHECKOUT' | 'OFF_SESSION' | 'REFUND';
  @Column({ type: 'text' }) status: 'OPEN' | 'PENDING' | 'APPROVED' | 'REJECTED' | 'CANCELLED' | 'EXPIRED';
  @Column({ name: 'merchant_name', type: 'varchar', length: 128 }) merchantName: string;
  @Column({ name: 'payment_method', type: 'text' }) paymentMethod: string;
  @Column({ type: 'char', length: 3 }) currency: string;
  @Column({ type: 'bigint', transformer: bigintTransformer }) amount: number;
  @Column({ name: 'settle_at', type: 'timestamptz', nullable: true }) settleAt: Date | null;
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true }) expiresAt: Date | null;
  @Column({ name: 'return_url', type: 'varchar', length: 2048, nullable: true }) returnUrl: string | null;
  /** The merchant's installment offer the payment was opened with (contract §25), and the plan its payer chose. */
  @Column({ name: 'installment_policy', type: 'jsonb', nullable: true }) installmentPolicy: SandboxInstallmentOffer | null;
  @Column({ type: 'smallint', nullable: true }) installments: number | null;
  @Column({ name: 'callback_sequence', type: 'integer' }) callbackSequence: number;
  @Column({ name: 'callback_pending', type: 'boolean' }) callbackPending: boolean;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
