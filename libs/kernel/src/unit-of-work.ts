/**
 * A unit of work as the bounded contexts see it (house style: ports in domain
 * terms, no ORM type above persistence). A service opens one with
 * `UnitOfWork.run` and hands its `Transaction` to every port it calls inside;
 * what the ports write commits together or not at all. `UnitOfWork.outside`
 * is the handle for work outside any transaction (each statement on its own).
 *
 * `Transaction` is opaque here: nothing in a context can run a statement with
 * it. Only persistence adapters open it (`managerOf` in @pcs/database), where
 * it is TypeORM's EntityManager of the transaction.
 */
export interface Transaction {
  /** A marker for the type checker only: no value carries it, nothing reads it. */
  readonly __unitOfWork: never;
}

export abstract class UnitOfWork {
  /** Work outside a transaction: each statement commits on its own (reads, single-statement writes). */
  abstract get outside(): Transaction;

  /**
   * Runs `work` in one transaction. A deadlock victim or a serialization
   * failure runs the whole of it again (a bounded number of times), so `work`
   * must touch nothing outside the database before it commits.
   */
  abstract run<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;

  /** Runs `callback` once `tx` commits (at once outside a transaction), never if it rolls back. */
  abstract afterCommit(tx: Transaction, callback: () => void): void;
}

/**
 * A fact another context vouches for, checked in the same statement as the write that depends on it
 * (the payer is still there, the instrument still active): the write happens only while it holds,
 * and otherwise writes nothing. Opaque: a context asks the owner of the fact for one
 * (`payers.whileLive(payerId)`) and hands it to its own port; only persistence reads it.
 */
export interface Precondition {
  /** A marker for the type checker only. */
  readonly __precondition: never;
}

/**
 * A change of another context that happens with a write or not at all (the link a payment uses, what
 * a charge taught about an instrument, the checkout a B2B intent opens): asked of its owner, handed
 * to the port that writes, applied by persistence in the same statement. Opaque like Precondition.
 */
export interface ChangeAlongside {
  /** A marker for the type checker only. */
  readonly __changeAlongside: never;
}
