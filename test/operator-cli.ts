import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runAdmin } from '../apps/ops/src/admin';

const CLI = path.join(__dirname, '..', 'dist', 'apps', 'ops', 'src', 'admin.js');
const CLI_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-cli-'));

export interface AdminRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The one JSON object the command printed, or {} when it printed something else. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: Record<string, any>;
}

function cliEnvironment(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    SECRETS_MASTER_KEY: process.env.TEST_SECRETS_MASTER_KEY,
    // The run's own folder: the audit head a command writes (contract §22) never lands in the project's .data.
    DATA_DIR: CLI_DATA_DIR,
    LOG_LEVEL: 'error',
    // Who the operator is, in the audit entries of their commands (contract §27: `operator:<name>`).
    OPERATOR_NAME: OPERATOR_NAME,
  };
}

/** The name the tests' operator commands run under. */
export const OPERATOR_NAME = 'ana.ops';

/** The operator CLI started and left running (a test that kills it mid-way). */
export function adminProcess(...args: string[]): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { env: cliEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Runs an operator command against this run's test database in this process (`runAdmin`, what `npm run admin` runs),
 * with the environment and streams of a process of its own: its own Nest context and pool, its own DATA_DIR, its
 * output captured; the test's own app keeps serving (its job queue, its pool) meanwhile. A command costs its work and
 * its context, not a Node process's boot (most of a second of module loading each). The process itself, `npm run admin`
 * and the built file, is tested by `adminBinary` and test/admin-cli.e2e-spec.ts.
 */
export function admin(...args: string[]): Promise<AdminRun> {
  return adminWith(cliEnvironment(), ...args);
}

/** The same in an environment of the caller's (a database, master keys or DATA_DIR of a test's own), over this process's. */
export async function adminWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<AdminRun> {
  let stdout = '';
  let stderr = '';
  const status = await runAdmin(args, {
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { status, stdout, stderr, json: onlyJson(stdout) };
}

/** The same command as the built CLI in a process of its own (`npm test` builds first), awaited. */
export function adminBinary(...args: string[]): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = adminProcess(...args);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, json: onlyJson(stdout) });
    });
  });
}

function onlyJson(stdout: string): AdminRun['json'] {
  const lines = stdout.split('\n').filter((l) => l.length > 0);
  return lines.length === 1 ? (JSON.parse(lines[0]) as AdminRun['json']) : {};
}
