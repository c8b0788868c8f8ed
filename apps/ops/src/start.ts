import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadDotEnv, loadEnvironment, resolveSecretsMasterKey } from '@pcs/config';
import { mailDirectoryFor, prepareRuntime, requireMailTransport, webhooksAllowLocalhost } from '@pcs/database';
import { ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { seedDemoIfEmpty } from './demo-seed';
import { OpsModule } from './ops.module';

const log = (line: string) => process.stderr.write(`[start] ${line}\n`);

const APIS = [
  { name: 'payins-api', main: path.resolve(__dirname, '../../payins-api/src/main.js') },
  { name: 'b2b-api', main: path.resolve(__dirname, '../../b2b-api/src/main.js') },
];

/**
 * `npm start`: the database (embedded unless DATABASE_URL is set), its
 * migrations and, on an empty database, the demo seed; then each API in its
 * own process, as they are deployed. The launcher owns the embedded server
 * and stops it once both APIs have exited.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const env = loadEnvironment();
  requireMailTransport(env);
  const runtime = await prepareRuntime(env, log);
  const settings = runtime.settingsFor(env.PAYINS_API_PORT);

  const ops = await NestFactory.createApplicationContext(OpsModule.forRoot(settings), { logger: false });
  const demo = await seedDemoIfEmpty(ops, env.dataDir).finally(() => ops.close());
  if (demo) {
    process.stdout.write(
      `Demo credentials (also in ${path.join(env.dataDir, 'demo-credentials.json')}):\n${JSON.stringify(demo, null, 2)}\n`,
    );
  }

  const childEnv = {
    ...process.env,
    DATABASE_URL: runtime.database.url,
    SECRETS_MASTER_KEY: resolveSecretsMasterKey(env).toString('base64'),
    // The APIs see DATABASE_URL (the launcher's embedded server) yet keep the embedded default's .eml folder.
    ...(mailDirectoryFor(env) ? { MAIL_DIRECTORY: mailDirectoryFor(env) as string } : {}),
    // Likewise the embedded default's webhooks to localhost (contract §14), unless set explicitly.
    WEBHOOKS_ALLOW_LOCALHOST: String(webhooksAllowLocalhost(env)),
  };
  const children: ChildProcess[] = APIS.map(({ name, main }) => {
    const child = spawn(process.execPath, [main], { env: childEnv, stdio: 'inherit' });
    child.on('exit', (code, signal) => {
      if (!stopping) {
        log(`${name} exited (${signal ?? code}); stopping`);
        void stop(1);
      }
    });
    return child;
  });

  let stopping = false;
  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await runtime.database.stop();
    process.exit(exitCode);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
}

main().catch((error: unknown) => {
  log(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
