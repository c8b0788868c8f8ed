import { freePort } from '@pcs/database';
import { ChildProcess, spawn } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const MAIN = path.join(__dirname, '..', 'dist', 'apps', 'dashboard', 'src', 'main.js');

/**
 * The dashboard stops as the APIs do (contract §22): on SIGTERM the requests
 * in flight are answered before its database closes, and it exits 0.
 */
describe('the dashboard stopping with a request in flight', () => {
  let child: ChildProcess;
  let output = '';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-dashboard-stop-'));
  // A payins API that takes its time: the sign-in asks it which business the dashboard serves.
  const slowApi = http.createServer((request, response) => {
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify([{ currentPage: '1', pageSize: '1', rowCount: 1, pageCount: 1, results: [{ businessId: crypto.randomUUID() }] }]),
      );
    }, 1_500);
  });

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    slowApi.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the sign-in in flight, then exits 0', async () => {
    await new Promise<void>((resolve) => slowApi.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        SECRETS_MASTER_KEY: process.env.TEST_SECRETS_MASTER_KEY,
        PAYINS_API_URL: `http://127.0.0.1:${(slowApi.address() as AddressInfo).port}`,
        DASHBOARD_API_KEY: 'pk_dashboard',
        DASHBOARD_API_SECRET: 'sk_dashboard',
        DASHBOARD_PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    let form: Response | undefined;
    for (let i = 0; i < 200 && !form; i++) {
      form = await fetch(`${base}/sign-in`).catch(() => undefined);
      if (!form) await sleep(100);
    }
    expect(form?.status).toBe(200);
    const cookie = form!.headers.get('set-cookie')!.split(';')[0];
    const token = /name="_csrf" value="([^"]+)"/.exec(await form!.text())![1];
    const inFlight = fetch(`${base}/sign-in`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: token, email: 'nobody@example.uy', password: 'not a password' }).toString(),
    });
    await sleep(400);
    child.kill('SIGTERM');
    const answer = await inFlight;
    // Answered in full (the refusal page), though the process was asked to stop while it waited.
    expect(answer.status).toBe(401);
    expect(await answer.text()).toContain('</html>');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM received');
  }, 60_000);
});
