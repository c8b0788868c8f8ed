import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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
 * Runs the built operator CLI (`npm test` builds first) against this run's test database, as a child
 * process the test awaits: the test's own app keeps serving (its job queue, its pool) meanwhile.
 */
export function admin(...args: string[]): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      const lines = stdout.split('\n').filter((l) => l.length > 0);
      resolve({ status, stdout, stderr, json: lines.length === 1 ? (JSON.parse(lines[0]) as AdminRun['json']) : {} });
    });
  });
}
