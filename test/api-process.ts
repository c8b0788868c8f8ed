import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const DIST = path.join(__dirname, '..', 'dist', 'apps');

/** The built operator CLI (`npm run admin -- …`) run with `env` on top of this process's; its JSON answer. */
export function admin(env: NodeJS.ProcessEnv, ...args: string[]): Record<string, unknown> {
  const result = spawnSync(process.execPath, [path.join(DIST, 'ops', 'src', 'admin.js'), ...args], {
    env: { ...process.env, ...env, LOG_LEVEL: 'error' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(`admin ${args[0]} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

async function healthy(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5_000) })).status === 200;
  } catch {
    return false;
  }
}

/** A built API (`npm test` builds first) as a process of its own, configured by its environment. */
export class ApiProcess {
  private child!: ChildProcess;
  output = '';
  exits: string[] = [];

  constructor(
    readonly name: 'payins-api' | 'b2b-api',
    readonly port: number,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  async start(): Promise<void> {
    this.exits = [];
    this.child = spawn(process.execPath, [path.join(DIST, this.name, 'src', 'main.js')], {
      // Spec files share the database: a spawned API never claims the daily runs (they touch every merchant) unless a test asks.
      env: {
        ...process.env,
        DAILY_RUNS: 'off',
        ...this.env,
        [this.name === 'payins-api' ? 'PAYINS_API_PORT' : 'B2B_API_PORT']: String(this.port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.on('exit', (code, signal) => this.exits.push(String(signal ?? code)));
    for (let i = 0; i < 300; i++) {
      if (this.exits.length) throw new Error(`${this.name} exited: ${this.output}`);
      if (await healthy(this.port)) return;
      await sleep(100);
    }
    throw new Error(`${this.name} did not start: ${this.output}`);
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** kill -9: the process dies wherever it is. */
  kill(): void {
    if (this.running) this.child.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    if (this.running) await stopChild(this.child, 10_000);
  }
}

/** SIGTERM, then SIGKILL if the child is still there after `graceMs`; resolves once it exited. */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const overdue = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(overdue);
}
