import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeFeed } from './change-feed';

export interface DatabaseOptions {
  readonly url: string;
  readonly poolSize?: number;
}

/**
 * The one TypeORM connection of an app. Entities register themselves through
 * each context's TypeOrmModule.forFeature; the schema only ever changes through
 * migrations (synchronize is off everywhere). The change feed (one LISTEN
 * connection) is available to every context's caches.
 */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [ChangeFeed],
      exports: [ChangeFeed],
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
          extra: { max: options.poolSize ?? 10, options: '-c jit=off' },
        }),
      ],
    };
  }
}
