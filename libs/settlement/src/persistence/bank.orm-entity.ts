import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'bank' })
export class BankOrmEntity {
  @PrimaryColumn({ name: 'bank_id', type: 'uuid' }) bankId: string;
  @Column({ type: 'char', length: 3 }) country: string;
  @Column({ type: 'varchar', length: 8 }) code: string;
  @Column({ type: 'char', length: 8, nullable: true }) ispb: string | null;
  @Column({ type: 'text' }) name: string;
  @Column({ name: 'account_lengths', type: 'integer', array: true, nullable: true }) accountLengths: number[] | null;
}
