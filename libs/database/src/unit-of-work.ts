import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Transaction, UnitOfWork } from '@pcs/kernel';
import { DataSource, EntityManager } from 'typeorm';
import { afterCommit, inTransaction } from './transactions';

declare module 'typeorm/entity-manager/EntityManager' {
  /**
   * TypeORM's manager is what a `Transaction` is in persistence: an adapter's
   * method may take `manager: EntityManager` where its port says `tx: Transaction`.
   * Declared for the type checker only (the marker is never set nor read).
   */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface EntityManager extends Transaction {}
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
    return this.dataSource.manager;
  }

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return inTransaction(this.dataSource, work);
  }

  afterCommit(tx: Transaction, callback: () => void): void {
    afterCommit(managerOf(tx), callback);
  }
}
