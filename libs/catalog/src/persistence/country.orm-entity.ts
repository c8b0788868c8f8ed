import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'country' })
export class CountryOrmEntity {
  @PrimaryColumn({ name: 'country_id', type: 'uuid' })
  countryId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'name_es', type: 'text' })
  nameEs: string;

  @Column({ type: 'char', length: 2, unique: true })
  iso2: string;

  @Column({ type: 'char', length: 3, unique: true })
  iso3: string;

  @Column({ name: 'iso_numeric', type: 'integer', unique: true })
  isoNumeric: number;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'text', array: true })
  currencies: string[];

  @Column({ name: 'phone_code', type: 'integer' })
  phoneCode: number;

  @Column({ type: 'text' })
  continent: string;

  @Column({ name: 'vat_rates_bp', type: 'integer', array: true })
  vatRatesBp: number[];

  @Column({ name: 'default_vat_rate_bp', type: 'integer' })
  defaultVatRateBp: number;

  @Column({ name: 'time_zone', type: 'text' })
  timeZone: string;

  @Column({ name: 'fee_tax_bp', type: 'integer' })
  feeTaxBp: number;
}
