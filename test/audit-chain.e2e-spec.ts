import {
  anchorKeyOf,
  auditKeyId,
  auditKeyOf,
  DashboardIdentity,
  dashboardIdentityOn,
  readChainHead,
  signedHead,
} from '@pcs/dashboard-identity';
import * as http from 'node:http';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { Housekeeping } from '../apps/dashboard/src/housekeeping';
import type { DashboardSettings } from '../apps/dashboard/src/settings';
import { adminWith } from './operator-cli';
import { scratchDatabase } from './scratch-database';

/**
 * The audit log proves its own integrity (contract §22), in a database of its
 * own (it is broken on purpose): append-only in PostgreSQL, an HMAC chain
 * keyed from the master key, and a head outside the database; the operator's
 * `audit:verify` names the first broken entry.
 */
describe('the audit chain, broken on purpose and found', () => {
  let url: string;
  let drop: (() => Promise<void>) | undefined;
  let dataSource: DataSource;
  let identity: DashboardIdentity;
  const masterKey = crypto.randomBytes(32);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-audit-'));
  const businessId = crypto.randomUUID();

  /** The operator's command on this test's database, keys and DATA_DIR (test/operator-cli.ts), with `env` over them. */
  const adminOn = (env: NodeJS.ProcessEnv, ...args: string[]) =>
    adminWith(
      { DATABASE_URL: url, SECRETS_MASTER_KEY: masterKey.toString('base64'), DATA_DIR: dataDir, AUDIT_ANCHOR_URL: '', ...env },
      ...args,
    );
  const admin = (...args: string[]) => adminOn({}, ...args);
  const write = async (n: number) => {
    for (let i = 0; i < n; i++)
      await identity.audit({
        businessId,
        userId: null,
        email: `person${i}@example.uy`,
        action: i % 2 ? 'refund' : 'sign-in',
        target: `pi_${i}`,
        result: 'succeeded',
        detail: { amount: `${i}.50`, nested: { z: 1, a: [i, 'ñ'] } },
        address: '203.0.113.7',
      });
  };
  /** What only the database's owner could do: the triggers off for one change. */
  const tamper = async (sql: string, params: unknown[] = []) => {
    const owner = new Client({ connectionString: url });
    await owner.connect();
    try {
      await owner.query('BEGIN');
      await owner.query('ALTER TABLE dashboard_audit DISABLE TRIGGER USER');
      await owner.query(sql, params);
      await owner.query('ALTER TABLE dashboard_audit ENABLE TRIGGER USER');
      await owner.query('COMMIT');
    } finally {
      await owner.end();
    }
  };

  beforeAll(async () => {
    ({ url, drop } = await scratchDatabase('pcs_audit'));
    dataSource = new DataSource({ type: 'postgres', url, poolSize: 3 });
    await dataSource.initialize();
    identity = dashboardIdentityOn(dataSource, null, { auditKeys: [auditKeyOf(masterKey)] });
  }, 120_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('chains entries written at once by many writers, refuses any change in PostgreSQL, and verifies', async () => {
    await Promise.all(Array.from({ length: 8 }, () => write(5)));
    // Written unsealed, without a lock (contract §29); the operator's command seals what waits.
    expect(await dataSource.query('SELECT count(*)::int AS n FROM dashboard_audit WHERE sequence IS NULL')).toEqual([{ n: 40 }]);
    expect((await admin('audit:seal')).json).toEqual({ sealed: 40 });
    const rows = await dataSource.query('SELECT sequence FROM dashboard_audit ORDER BY sequence');
    expect(rows.map((r: { sequence: string }) => Number(r.sequence))).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const sql of ["UPDATE dashboard_audit SET result = 'refused'", 'DELETE FROM dashboard_audit', 'TRUNCATE dashboard_audit'])
      await expect(dataSource.query(sql)).rejects.toThrow(/append-only/);
    const verified = await admin('audit:verify');
    expect(verified.status).toBe(0);
    expect(verified.json).toMatchObject({ ok: true, entries: 40, head: { sequence: 40 } });
    // The command wrote the head outside the database.
    expect(readChainHead(path.join(dataDir, 'audit-head.json'))).toEqual(verified.json.head);
    // Another key (another master key) cannot vouch for the chain.
    const stranger = dashboardIdentityOn(dataSource, null, { auditKeys: [auditKeyOf(crypto.randomBytes(32))] });
    expect((await stranger.verifyAuditChain(null)).ok).toBe(false);
  }, 120_000);

  it('fails verification on an entry left unsealed over a minute, and lets an entry be sealed once and nothing else', async () => {
    const none = path.join(dataDir, 'none.json');
    // A sealed entry cannot be sealed again (moved in the chain), nor changed while it is being sealed.
    await expect(dataSource.query(`UPDATE dashboard_audit SET sequence = sequence + 1000 WHERE sequence = 3`)).rejects.toThrow(
      /append-only/,
    );
    const [{ audit_id: waiting }] = await dataSource.query(
      `INSERT INTO dashboard_audit (business_id, email, action, result, at) VALUES ($1, 'late@example.uy', 'refund', 'succeeded', now() - interval '2 minutes')
       RETURNING audit_id`,
      [businessId],
    );
    await expect(
      dataSource.query(`UPDATE dashboard_audit SET sequence = 41, hmac = $2, key_id = 'abcdefgh', result = 'refused' WHERE audit_id = $1`, [
        waiting,
        'c'.repeat(64),
      ]),
    ).rejects.toThrow(/append-only/);
    // No sealer ran for two minutes: the logging itself failed, and the operator is told (PCI DSS 10.7).
    const stale = await admin('audit:verify', '--head', none);
    expect(stale.status).toBe(1);
    expect(stale.json).toMatchObject({
      ok: false,
      firstBroken: { auditId: String(waiting), reason: expect.stringContaining('still unsealed') },
    });
    // (Taken out again by the owner, so that the chain stays the one the next tests break.)
    await tamper('DELETE FROM dashboard_audit WHERE audit_id = $1', [waiting]);
    expect((await admin('audit:verify', '--head', none)).json).toMatchObject({ ok: true, entries: 40 });
  }, 120_000);

  it('sends signed heads off the host every round and at shutdown (AUDIT_ANCHOR_URL), and verifies against the newest that verifies', async () => {
    // A receiver that keeps what it is sent, as a write-once bucket's gateway would: POST keeps (with the bearer token
    // AUDIT_ANCHOR_TOKEN, else 401), GET answers every head it kept, one per line.
    const TOKEN = 'anchor-token-of-the-receiver-42';
    const kept: Record<string, unknown>[] = [];
    const receiver = http.createServer((req, res) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end();
      if (req.method === 'POST') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          kept.push(JSON.parse(body) as Record<string, unknown>);
          res.writeHead(201).end();
        });
        return;
      }
      if (kept.length === 0) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(kept.map((k) => JSON.stringify(k)).join('\n'));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const anchorUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/audit-head`;
    const anchorEnv = { AUDIT_ANCHOR_URL: anchorUrl, AUDIT_ANCHOR_TOKEN: TOKEN };
    const none = path.join(dataDir, 'none.json');
    try {
      const settings = { auditAnchorUrl: anchorUrl, auditAnchorToken: TOKEN, secretsMasterKey: masterKey } as DashboardSettings;
      const housekeeping = new Housekeeping(identity, settings);
      await housekeeping.writeHead();
      const head = (await identity.auditHead())!;
      // Each head carries its mac under the master key's anchor key (contract §29), never the key.
      expect(kept).toEqual([
        {
          sequence: head.sequence,
          hmac: head.hmac,
          at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
          keyId: auditKeyId(anchorKeyOf(masterKey)),
          mac: expect.stringMatching(/^[0-9a-f]{64}$/),
        },
      ]);
      // At shutdown too (the chain is the next test's, as it is: nothing is written here).
      await housekeeping.beforeApplicationShutdown();
      expect(kept.map((k) => k.sequence)).toEqual([head.sequence, head.sequence]);

      const verified = await admin('audit:verify', '--head', none);
      expect(verified.json).toMatchObject({ ok: true, anchor: null });
      const anchored = await adminOn(anchorEnv, 'audit:verify', '--head', none);
      expect(anchored.status).toBe(0);
      expect(anchored.json).toMatchObject({ ok: true, anchor: { source: 'AUDIT_ANCHOR_URL', sequence: head.sequence, hmac: head.hmac } });
      expect(anchored.json.anchorIgnored).toBeUndefined();
      // Without the receiver's token the anchor cannot be read: said, not taken for "no anchor".
      const stranger = await adminOn({ AUDIT_ANCHOR_URL: anchorUrl }, 'audit:verify', '--head', none);
      expect(stranger).toMatchObject({ status: 1, stdout: '', json: {} });
      expect(stranger.stderr).toContain('the audit anchor could not be read: the audit anchor answered 401');

      // Whoever can write to the anchor but holds no master key: a head far ahead, unsigned or signed with another key, is
      // ignored and reported; the chain is still checked against the newest head that verifies.
      kept.push({ sequence: head.sequence + 50, hmac: 'a'.repeat(64), at: new Date().toISOString() });
      kept.push(signedHead(anchorKeyOf(crypto.randomBytes(32)), { sequence: head.sequence + 60, hmac: 'b'.repeat(64) }));
      kept.push({
        ...signedHead(anchorKeyOf(masterKey), { sequence: head.sequence + 70, hmac: 'c'.repeat(64) }),
        sequence: head.sequence + 71,
      });
      const forged = await adminOn(anchorEnv, 'audit:verify', '--head', none);
      expect(forged.status).toBe(0);
      expect(forged.json).toMatchObject({ ok: true, anchor: { sequence: head.sequence, hmac: head.hmac } });
      expect(forged.json.anchorIgnored).toEqual([
        { sequence: head.sequence + 50, at: expect.any(String), reason: 'no mac' },
        { sequence: head.sequence + 60, at: expect.any(String), reason: 'a key id of no generation in the ring' },
        { sequence: head.sequence + 71, at: expect.any(String), reason: 'its mac does not verify' },
      ]);

      // A signed head the database no longer reaches (a tail removed after it was sent): found.
      kept.push(signedHead(anchorKeyOf(masterKey), { sequence: head.sequence + 6, hmac: 'a'.repeat(64) }));
      const short = await adminOn(anchorEnv, 'audit:verify', '--head', none);
      expect(short.status).toBe(1);
      expect(short.json).toMatchObject({ ok: false, firstBroken: { reason: expect.stringContaining(`says ${head.sequence + 6}`) } });
      // A copy of what the anchor kept (one head per line): its newest that verifies is the one checked; one that disagrees is found.
      const copy = path.join(dataDir, 'anchor.jsonl');
      fs.writeFileSync(
        copy,
        kept
          .slice(0, 2)
          .map((k) => JSON.stringify(k))
          .join('\n') + '\n',
      );
      expect((await admin('audit:verify', '--head', none, '--anchor-file', copy)).json).toMatchObject({ ok: true });
      fs.writeFileSync(copy, JSON.stringify(signedHead(anchorKeyOf(masterKey), { sequence: head.sequence, hmac: 'b'.repeat(64) })));
      const differs = await admin('audit:verify', '--head', none, '--anchor-file', copy);
      expect(differs.json).toMatchObject({
        ok: false,
        firstBroken: { sequence: head.sequence, reason: expect.stringContaining('differs') },
      });
      expect((await admin('audit:verify', '--anchor-file', path.join(dataDir, 'missing.jsonl'))).status).toBe(1);
    } finally {
      receiver.close();
    }
  }, 120_000);

  it('names the first entry changed, a removed tail (never overwriting the outside head), and a removed entry', async () => {
    const headFile = path.join(dataDir, 'audit-head.json');
    const [{ detail }] = await dataSource.query('SELECT detail FROM dashboard_audit WHERE sequence = 17');
    await tamper(`UPDATE dashboard_audit SET detail = '{"amount":"9999.00"}' WHERE sequence = 17`);
    const changed = await admin('audit:verify');
    expect(changed.status).toBe(1);
    expect(changed.json).toMatchObject({ ok: false, firstBroken: { sequence: 17, reason: expect.stringContaining('HMAC') } });
    expect(changed.stderr).toContain('the audit chain is broken');
    // Put back exactly as written: whole again (what is checked is the content, whatever jsonb does to key order).
    await tamper('UPDATE dashboard_audit SET detail = $1 WHERE sequence = 17', [JSON.stringify(detail)]);
    expect((await admin('audit:verify')).json).toMatchObject({ ok: true, entries: 40 });

    // The last two entries removed: the chain alone is whole, the head outside the database is not.
    await tamper('DELETE FROM dashboard_audit WHERE sequence > 38');
    expect((await identity.verifyAuditChain(null)).ok).toBe(true);
    expect((await admin('audit:verify')).json).toMatchObject({
      ok: false,
      firstBroken: { sequence: 39, reason: expect.stringContaining('says 40') },
    });
    // New entries take the removed places: the head is not moved over them, and the difference is found.
    await write(3);
    await identity.sealAudit();
    expect(await identity.advanceChainHead(headFile)).toEqual({ head: { sequence: 40, hmac: expect.any(String) }, agrees: false });
    expect(readChainHead(headFile)!.sequence).toBe(40);
    expect((await admin('audit:verify')).json).toMatchObject({
      ok: false,
      firstBroken: { sequence: 40, reason: expect.stringContaining('differs') },
    });

    // An entry removed from the middle.
    await tamper('DELETE FROM dashboard_audit WHERE sequence = 10');
    expect((await admin('audit:verify', '--head', path.join(dataDir, 'none.json'))).json).toMatchObject({
      ok: false,
      firstBroken: { sequence: 10, reason: 'entry 10 is missing (found 11)' },
    });
  }, 120_000);
});
