import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Transaction, UnitOfWork } from '@pcs/kernel';
import { DataSource, EntityManager } from 'typeorm';
import { afterCommit, inTransaction } from './transactions';

/**
 * A transaction's manager as the contexts hold it: opaque (a `Transaction` of @pcs/kernel), opened again only by
 * `managerOf` in persistence adapters and infrastructure. The one place an EntityManager becomes a Transaction.
 */
export function transactionOf(manager: EntityManager): Transaction {
  return manager as unknown as Transaction;
}

/** The manager of a transaction the contexts handed down; only persistence adapters and infrastructure open one. */
export function managerOf(tx: Transaction): EntityManager {
  if (tx instanceof EntityManager) return tx;
  throw new TypeError('not a unit of work of this database');
}

/** The unit of work on the app's one TypeORM connection (DatabaseModule provides it to every context). */
@Injectable()
export class TypeOrmUnitOfWork extends UnitOfWork {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  get outside(): Transaction {
    return transactionOf(this.dataSource.manager);
  }

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return inTransaction(this.dataSource, (manager) => work(transactionOf(manager)));
  }

  afterCommit(tx: Transaction, callback: () => void): void {
    afterCommit(managerOf(tx), callback);
  }
}
