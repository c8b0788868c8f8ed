import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'payment_method' })
export class PaymentMethodOrmEntity {
  @PrimaryColumn({ name: 'payment_method_id', type: 'uuid' })
  paymentMethodId: string;

  @Column({ type: 'text', unique: true })
  name: string;

  @Column({ name: 'image_path', type: 'text' })
  imagePath: string;

  @Column({ name: 'may_have_async_payments', type: 'boolean' })
  mayHaveAsyncPayments: boolean;

  @Column({ name: 'may_have_payments_limits', type: 'boolean' })
  mayHavePaymentsLimits: boolean;

  @Column({ name: 'supports_reserve', type: 'boolean' })
  supportsReserve: boolean;
}
