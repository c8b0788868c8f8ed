import { Transaction, UnitOfWork } from '@pcs/kernel';

/** The one transaction of a memory unit of work (specs on in-memory ports never look inside it). */
export const MEMORY_TX = {} as Transaction;

/**
 * A unit of work over in-memory ports, for services' unit specs: `run` runs the work and commits
 * when it returns (counted in `committed`, then its `afterCommit` callbacks run, in order); a work
 * that throws commits nothing and its callbacks never run. Outside `run`, a callback runs at once.
 */
export class MemoryUnitOfWork extends UnitOfWork {
  committed = 0;
  private readonly pending: Array<Array<() => void>> = [];
  get outside(): Transaction {
    return MEMORY_TX;
  }
  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const callbacks: Array<() => void> = [];
    this.pending.push(callbacks);
    try {
      const result = await work(MEMORY_TX);
      this.committed += 1;
      callbacks.forEach((callback) => callback());
      return result;
    } finally {
      this.pending.pop();
    }
  }
  afterCommit(_tx: Transaction, callback: () => void): void {
    const open = this.pending[this.pending.length - 1];
    if (open) open.push(callback);
    else callback();
  }
}
