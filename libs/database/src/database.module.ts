import { DynamicModule, Logger, Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import { UnitOfWork } from '@pcs/kernel';
import { DataSource } from 'typeorm';
import { CHANGE_FEED_URL, ChangeFeed } from './change-feed';
import { CONNECT_TIMEOUT_MS, resilientClientClass } from './database-unavailable';
import { setPreparedStatements } from './prepared-statements';
import { ReadReplica, REPLICA_OPTIONS, ReplicaOptions } from './read-replica';
import { TypeOrmUnitOfWork } from './unit-of-work';

const PREPARED_STATEMENTS = Symbol('PREPARED_STATEMENTS');

export interface DatabaseOptions {
  readonly url: string;
  readonly poolSize?: number;
  /** Hot statements as named prepared statements (DATABASE_PREPARED_STATEMENTS; default on). */
  readonly preparedStatements?: boolean;
  /** The database without a pooler in between, for the change feed's LISTEN (DATABASE_DIRECT_URL); by default `url`. */
  readonly sessionUrl?: string;
  /** A streaming read replica for the reads that may lag (DATABASE_REPLICA_URL; see ReadReplica). */
  readonly replica?: ReplicaOptions | null;
}

/**
 * The one TypeORM connection of an app. Entities register themselves through
 * each context's TypeOrmModule.forFeature; the schema only ever changes through
 * migrations (synchronize is off everywhere). The change feed (one LISTEN
 * connection) is available to every context's caches. With a read replica,
 * ReadReplica keeps a read pool of its own there; every other query reads the
 * primary.
 */
@Module({})
export class DatabaseModule {
  /** An API's connection as its settings say: pool size, prepared statements, the read replica, the direct URL for sessions. */
  static forApi(settings: RuntimeSettings): DynamicModule {
    return DatabaseModule.forRoot({
      url: settings.databaseUrl,
      poolSize: settings.poolSize,
      preparedStatements: settings.preparedStatements,
      replica: settings.readReplica,
      sessionUrl: settings.sessionDatabaseUrl,
    });
  }

  static forRoot(options: DatabaseOptions): DynamicModule {
    const logger = new Logger('Database');
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        ChangeFeed,
        ReadReplica,
        { provide: UnitOfWork, useClass: TypeOrmUnitOfWork },
        { provide: REPLICA_OPTIONS, useValue: options.replica ?? null },
        { provide: CHANGE_FEED_URL, useValue: options.sessionUrl ?? options.url },
        {
          provide: PREPARED_STATEMENTS,
          inject: [getDataSourceToken()],
          useFactory: (dataSource: DataSource) => setPreparedStatements(dataSource, options.preparedStatements ?? true),
        },
      ],
      exports: [ChangeFeed, ReadReplica, UnitOfWork],
      imports: [
        TypeOrmModule.forRoot({
          type: 'postgres',
          url: options.url,
          autoLoadEntities: true,
          synchronize: false,
          migrationsRun: false,
          // Off: TypeORM would log failed queries with their parameters (personal data).
          logging: false,
          // JIT compiles queries above a cost threshold (a count over 100k index entries)
          // at ~100 ms a time: right for analytics, wrong for an API. Off for our sessions.
          extra: {
            max: options.poolSize ?? 10,
            options: '-c jit=off',
            connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
            // A broken connection is dropped and replaced by the pool on the next use: the
            // pool reconnects by itself when the database is back, and no process exits.
            Client: resilientClientClass((error) => logger.warn(`a database connection broke: ${error.message}`)),
            // Dead peers are noticed by the kernel even on a connection waiting for nothing.
            keepAlive: true,
          },
          // pg-pool's own report of an idle connection that broke: already logged once by the client above.
          poolErrorHandler: (error: Error) => logger.debug(`an idle database connection broke: ${error.message}`),
        }),
      ],
    };
  }
}
