import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'reconciliation_run' })
export class ReconciliationRunOrmEntity {
  @PrimaryColumn({ name: 'run_id', type: 'uuid' }) runId: string;
  @Column({ name: 'business_id', type: 'uuid' }) businessId: string;
  @Column({ name: 'merchant_id', type: 'uuid' }) merchantId: string;
  @Column({ type: 'text' }) provider: string;
  @Column({ name: 'from_date', type: 'date' }) fromDate: string;
  @Column({ name: 'to_date', type: 'date' }) toDate: string;
  @Column({ type: 'text' }) status: string;
  @Column({ type: 'integer' }) matched: number;
  @Column({ type: 'integer' }) ignored: number;
  @Column({ name: 'failure_reason', type: 'varchar', length: 512, nullable: true }) failureReason: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true }) finishedAt: Date | null;
  /** The window's totals of each money column, minor units (null until completed). */
  @Column({ type: 'jsonb', nullable: true }) totals: Record<string, number | string | null> | null;
  /** The later run of a window containing this one's, which replaced its discrepancies. */
  @Column({ name: 'superseded_by', type: 'uuid', nullable: true }) supersededBy: string | null;
}

/** A side as stored: minor units, the date as ISO text. */
export interface StoredSide {
  readonly externalId: string | null;
  readonly currency: string | null;
  readonly amount: number | null;
  readonly fee: number | null;
  readonly date: string | null;
  readonly financingFee?: number | null;
  readonly taxes?: number | null;
  readonly netCredit?: number | null;
  readonly netDebit?: number | null;
}

@Entity({ name: 'reconciliation_discrepancy' })
export class ReconciliationDiscrepancyOrmEntity {
  @PrimaryColumn({ name: 'run_id', type: 'uuid' }) runId: string;
  @PrimaryColumn({ type: 'integer' }) position: number;
  @Column({ type: 'text' }) kind: string;
  @Column({ name: 'external_id', type: 'varchar', length: 255 }) externalId: string;
  @Column({ type: 'jsonb', nullable: true }) ours: StoredSide | null;
  @Column({ type: 'jsonb', nullable: true }) theirs: StoredSide | null;
}
