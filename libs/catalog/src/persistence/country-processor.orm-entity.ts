import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { CountryOrmEntity } from './country.orm-entity';
import { PaymentInstrumentTypeOrmEntity } from './payment-instrument-type.orm-entity';
import { PaymentMethodOrmEntity } from './payment-method.orm-entity';

@Entity({ name: 'country_processor' })
@Unique('country_processor_unique', ['countryId', 'paymentMethodId', 'paymentInstrumentTypeId'])
export class CountryProcessorOrmEntity {
  @PrimaryColumn({ name: 'country_processor_id', type: 'uuid' })
  countryProcessorId: string;

  @Column({ name: 'country_id', type: 'uuid' })
  countryId: string;

  @ManyToOne(() => CountryOrmEntity, { nullable: false })
  @JoinColumn({ name: 'country_id' })
  country: CountryOrmEntity;

  @Column({ name: 'payment_method_id', type: 'uuid' })
  paymentMethodId: string;

  @ManyToOne(() => PaymentMethodOrmEntity, { nullable: false })
  @JoinColumn({ name: 'payment_method_id' })
  paymentMethod: PaymentMethodOrmEntity;

  @Column({ name: 'payment_instrument_type_id', type: 'uuid' })
  paymentInstrumentTypeId: string;

  @ManyToOne(() => PaymentInstrumentTypeOrmEntity, { nullable: false })
  @JoinColumn({ name: 'payment_instrument_type_id' })
  paymentInstrumentType: PaymentInstrumentTypeOrmEntity;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ type: 'text', array: true })
  currencies: string[];

  @Column({ type: 'text' })
  gateway: string;

  @Column({ name: 'settlement_delay_days', type: 'integer' })
  settlementDelayDays: number;

  @Column({ name: 'fee_bp', type: 'integer' })
  feeBp: number;

  /** Fixed fee per currency, minor units. */
  @Column({ name: 'fee_fixed', type: 'jsonb' })
  feeFixed: Record<string, number>;

  /** The smallest amount collected per currency, minor units. */
  @Column({ name: 'minimum_amount', type: 'jsonb' })
  minimumAmount: Record<string, number>;
}
