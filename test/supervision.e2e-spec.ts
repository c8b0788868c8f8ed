import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './payins-app';

const START = path.join(__dirname, '..', 'dist', 'apps', 'ops', 'src', 'start.js');

/** The launcher's child processes whose command line contains `marker`. */
function childrenOf(parent: number, marker: string): number[] {
  let pids: number[];
  try {
    pids = execFileSync('pgrep', ['-P', String(parent)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there is none
  }
  return pids.filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
    } catch {
      return false;
    }
  });
}

/** Whether any process on the machine has `marker` in its command line (pgrep -f). */
function anyProcessWith(marker: string): boolean {
  try {
    execFileSync('pgrep', ['-f', marker]);
    return true;
  } catch {
    return false;
  }
}

async function healthy(port: number, seconds: number): Promise<boolean> {
  for (const until = Date.now() + seconds * 1000; Date.now() < until; await sleep(200)) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return true;
  }
  return false;
}

/**
 * `npm start` keeps the service running (contract §17): the real launcher on
 * the embedded default, one of its APIs killed with SIGKILL and its embedded
 * PostgreSQL crashed; each comes back by itself, and only SIGTERM ends it all.
 */
describe('npm start supervises what it started', () => {
  let launcher: ChildProcess;
  let output = '';
  let dataDir: string;

  afterAll(() => {
    if (launcher && launcher.exitCode === null) launcher.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('restarts a killed API and a crashed embedded PostgreSQL, and stops everything on SIGTERM', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-supervision-'));
    fs.chmodSync(dataDir, 0o755);
    const [payinsPort, b2bPort] = [await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PAYINS_API_PORT: String(payinsPort),
      B2B_API_PORT: String(b2bPort),
    };
    for (const name of ['DATABASE_URL', 'SECRETS_MASTER_KEY', 'SMTP_URL']) delete env[name];
    env.LOG_LEVEL = 'warn';
    launcher = spawn(process.execPath, [START], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    launcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await healthy(payinsPort, 60)).toBe(true);
    expect(await healthy(b2bPort, 10)).toBe(true);

    // An API killed outright: restarted after a pause, announced in one line.
    const [payins] = childrenOf(launcher.pid!, 'payins-api/src/main.js');
    process.kill(payins, 'SIGKILL');
    await sleep(300);
    expect(await healthy(payinsPort, 20)).toBe(true);
    expect(output).toContain('[start] payins-api exited (SIGKILL); restarting it in 1 s');
    expect(childrenOf(launcher.pid!, 'payins-api/src/main.js')).not.toContain(payins);

    // The embedded PostgreSQL crashed (immediate shutdown): restarted on its port; the APIs serve again.
    const [postgres] = childrenOf(launcher.pid!, `${dataDir}/postgres`);
    process.kill(postgres, 'SIGQUIT');
    await sleep(500);
    expect(await healthy(payinsPort, 20)).toBe(true);
    expect(await healthy(b2bPort, 10)).toBe(true);
    expect(output).toMatch(/\[start\] the embedded PostgreSQL exited \(.+\); restarting it in 1 s/);
    expect(launcher.exitCode).toBeNull();

    // Only a signal to the launcher ends the service: cleanly, nothing left running.
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(anyProcessWith(`${dataDir}/postgres`)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 150_000);
});
