import { INestApplication } from '@nestjs/common';
import { closeOnSignal, Environment, loadDotEnv, loadEnvironment, RuntimeSettings } from '@pcs/config';
import { isDatabaseUnavailable, prepareRuntime, requireMailTransport } from '@pcs/database';
import { flushTracing } from '@pcs/observability';
import { closeGracefully } from './http-app';

/** How long a stopping API waits for the requests in flight (a deployment's grace is usually 10 s or more). */
const SHUTDOWN_DRAIN_MS = 8_000;

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
  // A promise nobody awaited that failed (a library's fire-and-forget write while the database
  // restarts) is reported, not a reason to end the process and every request it is serving.
  process.on('unhandledRejection', (reason) => {
    const detail = reason instanceof Error ? reason.message : String(reason);
    log(`${isDatabaseUnavailable(reason) ? 'while the database was unavailable: ' : ''}unhandled rejection: ${detail}`);
  });
  const run = async () => {
    loadDotEnv();
    const env = loadEnvironment();
    requireMailTransport(env);
    const runtime = await prepareRuntime(env, log, 'service', name);
    const app = await create(runtime.settingsFor(portOf(env)), env.LOG_LEVEL);
    await app.listen(portOf(env));
    log(`listening on ${await app.getUrl()}`);
    closeOnSignal(async () => {
      await closeGracefully(app, SHUTDOWN_DRAIN_MS, log);
      await runtime.database.stop();
      await flushTracing();
    }, log);
  };
  run().catch((error: unknown) => {
    log(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
