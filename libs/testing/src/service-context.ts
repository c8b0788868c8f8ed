import { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { GatewaySettings, RuntimeSettingsModule } from '@pcs/config';
import { DatabaseModule } from '@pcs/database';
import { DataSource } from 'typeorm';
import { testSettings } from './test-settings';

/** A context's modules wired to this run's database, for integration specs of services. */
export interface ServiceContext {
  readonly context: INestApplicationContext;
  readonly dataSource: DataSource;
  get<T>(type: Type<T> | (abstract new (...args: never[]) => T)): T;
  close(): Promise<void>;
}

export async function serviceContext(
  modules: (Type<unknown> | DynamicModule)[],
  options: { gateway?: Partial<GatewaySettings>; poolSize?: number } = {},
): Promise<ServiceContext> {
  const settings = testSettings('http://localhost:3000', options.gateway);
  const module = await Test.createTestingModule({
    imports: [
      RuntimeSettingsModule.forRoot(settings),
      DatabaseModule.forRoot({ url: settings.databaseUrl, poolSize: options.poolSize ?? 6 }),
      ...modules,
    ],
  }).compile();
  const context = await module.init();
  return {
    context,
    dataSource: context.get<DataSource>(getDataSourceToken()),
    get: (type) => context.get(type),
    close: () => context.close(),
  };
}
