import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Environment, loadEnvironment } from '@pcs/config';
import { PreparedRuntime, prepareRuntime } from '@pcs/database';
import { operatorActor } from './operator-actor';
import { OpsModule } from './ops.module';

export interface OpsContext {
  readonly env: Environment;
  readonly runtime: PreparedRuntime;
  readonly app: INestApplicationContext;
  close(): Promise<void>;
}

/**
 * Environment, database, migrations and the domain services, without HTTP, for the operator `source` names
 * (its OPERATOR_NAME, contract §27): the process's environment (with .env read) or one a caller hands in.
 */
export async function openOpsContext(log: (line: string) => void, source: NodeJS.ProcessEnv = process.env): Promise<OpsContext> {
  const env = loadEnvironment(source);
  const runtime = await prepareRuntime(env, log, 'operator', 'operator command');
  try {
    const app = await NestFactory.createApplicationContext(
      OpsModule.forRoot(runtime.settingsFor(env.PAYINS_API_PORT), operatorActor(source)),
      {
        logger: false,
        // A module that cannot be built is an error the command reports ("failed: …"), not a silent exit.
        abortOnError: false,
      },
    );
    return {
      env,
      runtime,
      app,
      close: async () => {
        await app.close();
        await runtime.database.stop();
      },
    };
  } catch (error) {
    await runtime.database.stop();
    throw error;
  }
}
