import { DisputeProcessor, DisputeStatus, Page, PageRequest, TenantScope, Transaction } from '@pcs/kernel';
import { Dispute, EvidenceFile } from './domain/dispute';

export interface DisputeFilters {
  readonly status?: DisputeStatus;
  /** On createdAt: from this instant, inclusive. */
  readonly dateFrom?: Date;
  /** On createdAt: until this instant, inclusive. */
  readonly dateUntil?: Date;
  /** CREATED: newest first (default); DUE_DATE: the nearest evidence due date first, those without one last. */
  readonly sort?: 'CREATED' | 'DUE_DATE';
}

/** A file to keep: its checked name and type, and its bytes. */
export interface NewEvidence {
  readonly evidenceId: string;
  readonly fileName: string;
  readonly contentType: EvidenceFile['contentType'];
  readonly content: Buffer;
  readonly uploadedAt: Date;
}

/** Where disputes and their evidence are kept (port; the TypeORM adapter is in persistence/). The unit of work comes first. */
export abstract class DisputeRepository {
  /** A dispute within the scope (or any, for the service's own flows, with scope null); with `lock`, taken for update. */
  abstract find(tx: Transaction, disputeId: string, scope: TenantScope | null, lock?: boolean): Promise<Dispute | null>;
  /** The dispute of a processor's case, taken for update. */
  abstract lockCase(tx: Transaction, processor: DisputeProcessor, reference: string): Promise<Dispute | null>;
  /** A new dispute; false (nothing written) when its processor's case is already recorded (two notifications racing). */
  abstract insert(tx: Transaction, dispute: Dispute): Promise<boolean>;
  abstract save(tx: Transaction, dispute: Dispute): Promise<void>;
  abstract list(tx: Transaction, scope: TenantScope, filters: DisputeFilters, page: PageRequest): Promise<Page<Dispute>>;
  /** Each dispute's evidence files (without their bytes), oldest first. */
  abstract evidenceOf(tx: Transaction, disputeIds: readonly string[]): Promise<Map<string, EvidenceFile[]>>;
  /** Keeps files; one already kept under its id (a retried request) is left as it is. */
  abstract addEvidence(tx: Transaction, disputeId: string, files: readonly NewEvidence[]): Promise<void>;
  /** The dispute's files with their bytes, oldest first (to send them). */
  abstract evidenceContents(
    tx: Transaction,
    disputeId: string,
  ): Promise<{ evidenceId: string; fileName: string; contentType: EvidenceFile['contentType']; content: Buffer }[]>;
  abstract markEvidenceSent(tx: Transaction, evidenceIds: readonly string[], at: Date): Promise<void>;
  /** The merchant's disputes of these collections (ledger payins), oldest first. */
  abstract ofCharges(tx: Transaction, merchantId: string, chargeIds: readonly string[]): Promise<Dispute[]>;
}
