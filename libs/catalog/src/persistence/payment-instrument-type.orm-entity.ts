import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'payment_instrument_type' })
export class PaymentInstrumentTypeOrmEntity {
  @PrimaryColumn({ name: 'payment_instrument_type_id', type: 'uuid' })
  paymentInstrumentTypeId: string;

  @Column({ type: 'text', unique: true })
  name: string;
}
