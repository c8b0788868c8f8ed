import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { freePort } from '@pcs/database';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * `npm run bench:start`: how long a person waits (issue 13) — `npm start` on
 * a fresh DATA_DIR and again on the same one, until both APIs answer /health;
 * an operator command with the service running and with it stopped. Real npm,
 * real processes, the machine's own figures printed; nothing is asserted.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..', '..');

async function healthy(url: string): Promise<boolean> {
  return fetch(url).then(
    (response) => response.ok,
    () => false,
  );
}

interface Started {
  readonly child: ChildProcess;
  readonly seconds: number;
}

async function npmStart(env: NodeJS.ProcessEnv, ports: [number, number]): Promise<Started> {
  const began = process.hrtime.bigint();
  // Its own process group, stopped as a terminal's Ctrl-C stops it.
  const child = spawn('npm', ['start'], { cwd: ROOT, env, stdio: 'ignore', detached: true });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    const both = await Promise.all(ports.map((port) => healthy(`http://127.0.0.1:${port}/health`)));
    if (both.every(Boolean)) return { child, seconds: Number(process.hrtime.bigint() - began) / 1e9 };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGINT');
  });
}

function admin(env: NodeJS.ProcessEnv): number {
  const began = process.hrtime.bigint();
  const result = spawnSync('npm', ['run', 'admin', '--', 'business:create', '--name', 'Bench SA'], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run admin failed: ${result.stderr}`);
  JSON.parse(result.stdout); // only its JSON on stdout
  return Number(process.hrtime.bigint() - began) / 1e9;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-bench-start-'));
  fs.chmodSync(dataDir, 0o755);
  const ports: [number, number] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PAYINS_API_PORT: String(ports[0]),
    B2B_API_PORT: String(ports[1]),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
  const figures: [string, number][] = [];
  try {
    const first = await npmStart(env, ports);
    figures.push(['npm start, fresh DATA_DIR (binaries copied, cluster created, migrations, demo seed)', first.seconds]);
    figures.push(['npm run admin -- business:create, service running', admin(env)]);
    await stop(first.child);
    figures.push(['npm run admin -- business:create, service stopped (starts and stops the server)', admin(env)]);
    for (let i = 1; i <= 3; i++) {
      const again = await npmStart(env, ports);
      figures.push([`npm start again, same DATA_DIR (run ${i})`, again.seconds]);
      await stop(again.child);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(
    `\nWaiting times on this machine (${os.cpus().length} cores), until both APIs answer /health or the command exits:\n`,
  );
  for (const [what, seconds] of figures) process.stdout.write(`  ${seconds.toFixed(2).padStart(6)} s  ${what}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
