import { INestApplication } from '@nestjs/common';
import { closeOnSignal, Environment, loadDotEnv, loadEnvironment, RuntimeSettings } from '@pcs/config';
import { prepareRuntime, requireMailTransport } from '@pcs/database';

/**
 * Runs one API in its own process (one container per API). `npm start` runs
 * both APIs in one process instead (apps/ops/src/start.ts).
 */
export function serveStandalone(
  name: string,
  portOf: (env: Environment) => number,
  create: (settings: RuntimeSettings, logLevel: string) => Promise<INestApplication>,
): void {
  const log = (line: string) => process.stderr.write(`[${name}] ${line}\n`);
  const run = async () => {
    loadDotEnv();
    const env = loadEnvironment();
    requireMailTransport(env);
    const runtime = await prepareRuntime(env, log);
    const app = await create(runtime.settingsFor(portOf(env)), env.LOG_LEVEL);
    await app.listen(portOf(env));
    log(`listening on ${await app.getUrl()}`);
    closeOnSignal(async () => {
      await app.close();
      await runtime.database.stop();
    }, log);
  };
  run().catch((error: unknown) => {
    log(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
