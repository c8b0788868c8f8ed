import { BusinessId, Page, PageRequest, PayerId, Precondition, TenantScope, Transaction } from '@pcs/kernel';
import { Payer } from './domain/payer';

export type PayerLock = 'none' | 'share' | 'update';

/** Where payers are kept (port; the TypeORM adapter is in persistence/). The unit of work comes first. */
export abstract class PayerRepository {
  /**
   * A live payer within the scope. `share` takes it for key share (paying
   * with it), `update` for update (changing or deleting it).
   */
  abstract findVisible(tx: Transaction, scope: TenantScope, payerId: PayerId, lock?: PayerLock): Promise<Payer | null>;
  /** By id, deleted payers included (payment records keep their names). */
  abstract findById(tx: Transaction, payerId: PayerId): Promise<Payer | null>;
  /** That the payer exists and is not deleted, checked in another write's statement, taking it as a 'share' lock does. */
  abstract whileLive(payerId: PayerId): Precondition;
  /** Which of these payers are live and of the caller's business. */
  abstract liveIds(tx: Transaction, businessId: BusinessId, payerIds: readonly PayerId[]): Promise<Set<string>>;
  /** Operation 11: newest first; the search term matches names, email and document ignoring case and accents. */
  abstract list(tx: Transaction, scope: TenantScope, searchTerm: string | undefined, page: PageRequest): Promise<Page<Payer>>;
  /** A new payer; another live payer with its document for the merchant throws DuplicateDocumentError. */
  abstract insert(tx: Transaction, payer: Payer): Promise<void>;
  /** Saves changes; completing a document another live payer holds throws DuplicateDocumentError. */
  abstract save(tx: Transaction, payer: Payer): Promise<void>;
}

/** A live payer of the same merchant already holds this document. */
export class DuplicateDocumentError extends Error {
  constructor(readonly existingPayerId: string | null) {
    super('a payer with this document already exists for the merchant');
    this.name = 'DuplicateDocumentError';
  }
}
