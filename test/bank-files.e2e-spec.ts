import { asMerchantId, Currency } from '@pcs/kernel';
import { BalancesService, bankReferenceOf, SettlementDailyService } from '@pcs/settlement';
import { clientFor, createTenant, eventually, SignedClient } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readyPerson, testIdentity } from './dashboard-people';
import { admin, adminProcess } from './operator-cli';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const ITAU = '889c9371-1954-4c17-82a3-43a59c788574';
const BRADESCO = 'e7628f90-439e-489d-bff5-9f70f1ffbc1e';
const at = (line: string, from: number, to: number) => line.slice(from - 1, to);
const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * Bank files that cannot pay twice (contract §24): a business's payouts to a Brazilian bank exported as a batch — the CSV and a
 * FEBRABAN CNAB 240 remittance debiting the business's own account — recorded before its files are written, written again
 * identically after a crash, and no payout ever in two batches.
 */
describe('bank files: batches recorded before their files, CNAB 240 for Brazilian banks, a crash between the two', () => {
  let bed: Testbed;
  let businessId: string;
  let shops: { merchantId: string; client: SignedClient }[];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-cnab-'));

  beforeAll(async () => {
    bed = await testbed({ settlement: { payoutRail: 'BANK_FILE' } });
    const tenant = await createTenant(bed.app, { merchants: 2, country: 'BRA' });
    businessId = tenant.business.businessId;
    shops = tenant.merchants.map((m) => ({ merchantId: m.merchantId, client: clientFor(bed.app, m) }));
    // Two merchants paid at Itaú: one to a checking account, one to a PIX key (an e-mail), each its first account (not held).
    expect(
      (
        await shops[0].client.put(`/merchant/${shops[0].merchantId}/settlement-account/BRL`, {
          bankId: ITAU,
          accountNumber: '0001/12345678-9',
          accountType: 'CHECKING',
          holderDocument: '529.982.247-25',
        })
      ).body,
    ).toMatchObject({ holdUntil: null });
    expect(
      (
        await shops[1].client.put(`/merchant/${shops[1].merchantId}/settlement-account/BRL`, {
          bankId: ITAU,
          accountNumber: 'Loja.Pix@Example.com.br',
          accountType: 'PIX_KEY',
          holderDocument: '11.444.777/0001-61',
        })
      ).body,
    ).toMatchObject({ holdUntil: null, accountNumber: 'loja.pix@example.com.br' });
  });
  afterAll(() => bed.close());

  /** Money in the merchant's balance (an operator's adjustment), then a payout of it, waiting in Itaú's batch. */
  async function payout(shop: { merchantId: string; client: SignedClient }, amount: string): Promise<Json> {
    expect(
      (await admin('balance:adjust', '--merchant', shop.merchantId, '--currency', 'BRL', `--amount=${amount}`, '--reason', 'test')).status,
    ).toBe(0);
    const made = await shop.client.post(`/merchant/${shop.merchantId}/payout`, { currency: 'BRL' });
    expect(made.body).toMatchObject({ status: 'IN_TRANSIT', amount: Number(amount) });
    return made.body;
  }

  it('refuses a Brazilian batch until the business has its debtor account, recording nothing', async () => {
    const waiting = await payout(shops[0], '10.00');
    const refused = await admin('payouts:export', '--bank', ITAU, '--business', businessId, '--out', dir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('payouts:debtor-account:set');
    expect((await bed.dataSource.query(`SELECT count(*)::int AS n FROM payout_batch WHERE business_id = $1`, [businessId]))[0].n).toBe(0);
    expect((await shops[0].client.get(`/payout/${waiting.payoutId}`)).body).toMatchObject({ status: 'IN_TRANSIT' });
    const bad = await admin(
      'payouts:debtor-account:set',
      '--business',
      businessId,
      '--bank',
      ITAU,
      '--document',
      '123',
      '--name',
      'X',
      '--account',
      '1/2',
    );
    expect(bad.status).toBe(1);
    const set = await admin(
      'payouts:debtor-account:set',
      '--business',
      businessId,
      '--bank',
      BRADESCO,
      '--document',
      '11.222.333/0001-81',
      '--name',
      'Plataforma de Pagos Ltda',
      '--account',
      '1234-5/0056789-0',
      '--agreement',
      'CONV-778899',
    );
    expect(set.status).toBe(0);
    expect(set.json).toMatchObject({ businessId, bankId: BRADESCO, document: '11222333000181', branch: '1234', branchDigit: '5' });
  });

  it('writes the batch as CSV and as a CNAB 240 remittance: a TED to the account, a PIX to the key, the totals', async () => {
    const toAccount = await payout(shops[0], '1500.25');
    const toKey = await payout(shops[1], '99.99');
    const exported = await admin('payouts:export', '--bank', ITAU, '--business', businessId, '--out', dir);
    expect(exported.status).toBe(0);
    const [batch] = exported.json.batches as Json[];
    expect(batch).toMatchObject({ businessId, sequence: 1, payouts: 3, totals: [{ currency: 'BRL', amount: 1610.24 }] });
    const name = `BRA-341-${businessId}-000001`;
    expect(batch.files).toEqual([path.join(dir, `${name}.csv`), path.join(dir, `${name}.rem`)]);
    const cnab = fs.readFileSync(path.join(dir, `${name}.rem`), 'latin1');
    expect(sha256(cnab)).toBe(batch.sha256.cnab240);
    const lines = cnab.split('\r\n').slice(0, -1);
    for (const line of lines) expect(line).toHaveLength(240);
    // The file goes to the debtor's bank (Bradesco, 237), from the business's account there, number 1 of its files.
    expect([at(lines[0], 1, 3), at(lines[0], 19, 32), at(lines[0], 53, 58), at(lines[0], 59, 71), at(lines[0], 158, 163)]).toEqual([
      '237',
      '11222333000181',
      '012345',
      '0000000567890',
      '000001',
    ]);
    const segmentsA = lines.filter((l) => at(l, 8, 8) === '3' && at(l, 14, 14) === 'A');
    const byReference = new Map(segmentsA.map((l) => [at(l, 74, 93), l]));
    // Two TEDs to the Itaú checking account (another bank than the debtor's): clearing 018, its branch and account.
    for (const p of [toAccount])
      expect([
        at(byReference.get(bankReferenceOf(p.payoutId as string))!, 18, 23),
        at(byReference.get(bankReferenceOf(p.payoutId as string))!, 120, 134),
      ]).toEqual(['018341', '000000000150025']);
    // The PIX by key: clearing 009 (SPI), no account; its segment B says how (02, an e-mail) and the key.
    const pix = lines.findIndex((l) => at(l, 74, 93) === bankReferenceOf(toKey.payoutId as string));
    expect([at(lines[pix], 18, 20), at(lines[pix], 120, 134)]).toEqual(['009', '000000000009999']);
    expect([at(lines[pix + 1], 14, 17), at(lines[pix + 1], 19, 32), at(lines[pix + 1], 128, 226).trimEnd()]).toEqual([
      'B02 ',
      '11444777000161',
      'loja.pix@example.com.br',
    ]);
    const trailers = lines.filter((l) => at(l, 8, 8) === '5');
    expect(trailers.map((t) => [at(t, 18, 23), Number(at(t, 24, 41))])).toEqual([
      ['000006', 151025],
      ['000004', 9999],
    ]);
    expect(at(lines[lines.length - 1], 24, 29)).toBe(String(lines.length).padStart(6, '0'));
    const csv = fs.readFileSync(path.join(dir, `${name}.csv`), 'utf8');
    expect(csv.split('\r\n').filter((l) => l.includes(batch.batchId as string))).toHaveLength(3);
  });

  it('survives kill -9 between the batch and its files: written again identically, and no payout in two batches', async () => {
    const made = await payout(shops[0], '321.09');
    const name = `BRA-341-${businessId}-000002`;
    // A FIFO where the CSV is first written: the export blocks there, after its transaction committed, until killed.
    execFileSync('mkfifo', [path.join(dir, `${name}.csv.partial`)]);
    const child = adminProcess('payouts:export', '--bank', ITAU, '--business', businessId, '--out', dir);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const [recorded] = await eventually(
      () =>
        bed.dataSource.query(`SELECT batch_id, written_at, csv, cnab240 FROM payout_batch WHERE business_id = $1 AND sequence = 2`, [
          businessId,
        ]),
      (rows: Json[]) => rows.length === 1,
    );
    expect(recorded.written_at).toBeNull();
    // Killed where the export waits on the FIFO: after the batch's record and its audit entry, before any file.
    await eventually(
      () =>
        bed.dataSource.query(`SELECT 1 FROM dashboard_audit WHERE action = 'payouts:export' AND target = $1`, [
          recorded.batch_id as string,
        ]),
      (rows: Json[]) => rows.length === 1,
    );
    child.kill('SIGKILL');
    expect(await exited).toBeNull();
    expect(fs.existsSync(path.join(dir, `${name}.csv`))).toBe(false);
    // The payout belongs to the batch: a new export finds nothing to export, so nothing can be paid twice.
    expect((await shops[0].client.get(`/payout/${made.payoutId as string}`)).body).toMatchObject({ status: 'IN_TRANSIT' });
    expect((await admin('payouts:export', '--bank', ITAU, '--business', businessId, '--out', dir)).json).toEqual({
      bankId: ITAU,
      batches: [],
    });
    const again = await admin('payouts:export', '--batch', recorded.batch_id, '--out', dir);
    expect(again.status).toBe(0);
    expect(fs.readFileSync(path.join(dir, `${name}.csv`), 'utf8')).toBe(recorded.csv);
    expect(fs.readFileSync(path.join(dir, `${name}.rem`), 'latin1')).toBe(recorded.cnab240);
    expect(at(recorded.cnab240 as string, 158, 163)).toBe('000002');
    // Written twice more, the same bytes.
    await admin('payouts:export', '--batch', recorded.batch_id, '--out', dir);
    expect(sha256(fs.readFileSync(path.join(dir, `${name}.rem`), 'latin1'))).toBe(sha256(recorded.cnab240 as string));
    // The database refuses a payout a second batch: its batch is set once.
    const [other] = await bed.dataSource.query(`SELECT batch_id FROM payout_batch WHERE business_id = $1 AND sequence = 1`, [businessId]);
    await expect(
      bed.dataSource.query(`UPDATE payout SET batch_id = $1 WHERE payout_id = $2`, [other.batch_id, made.payoutId]),
    ).rejects.toThrow(/already in batch/);
    const audited = await bed.dataSource.query(
      `SELECT target, result, detail->>'again' AS again FROM dashboard_audit WHERE business_id = $1 AND action = 'payouts:export' ORDER BY audit_id`,
      [businessId],
    );
    expect(audited.map((a: Json) => [a.target, a.result, a.again])).toEqual([
      [ITAU, 'refused', null],
      [expect.any(String), 'succeeded', null],
      [recorded.batch_id, 'succeeded', null],
      [recorded.batch_id, 'succeeded', 'true'],
      [recorded.batch_id, 'succeeded', 'true'],
    ]);
  });

  it('pays reais only in a CNAB 240 remittance: a USD payout is refused, a scheduled one waits (admins mailed once), an older one goes in a CSV of its own (contract §28)', async () => {
    const shop = shops[1];
    const { merchantId } = shop;
    const boss = await readyPerson(testIdentity(bed.dataSource), { businessId, role: 'admin' });
    expect(
      (
        await shop.client.put(`/merchant/${merchantId}/settlement-account/USD`, {
          bankId: ITAU,
          accountNumber: '0001/87654321-0',
          accountType: 'CHECKING',
          holderDocument: '11.444.777/0001-61',
        })
      ).status,
    ).toBe(200);
    await bed.app.get(BalancesService).adjust(asMerchantId(merchantId), businessId, Currency.USD, 5000, 'dollars');
    const refused = await shop.client.post(`/merchant/${merchantId}/payout`, { currency: 'USD' });
    expect([refused.status, refused.body.errorId]).toEqual([409, 'Payins:PAYOUT_CURRENCY_NOT_SUPPORTED']);
    expect(refused.body.showMessage.EN).toMatch(/^Payouts in USD cannot reach the settlement account: .*CNAB 240.*BRL only/);
    // The daily run on two business days: the USD payout waits both times, and the admins hear of it once.
    const daily = bed.app.get(SettlementDailyService);
    for (const day of ['2026-12-01', '2026-12-02'])
      expect((await daily.run('BRA', day, { merchantIds: [asMerchantId(merchantId)] })).payouts).toEqual([]);
    // The admins hear of each settlement account's change too (the boss may be an admin the earlier tests made): only the waiting ones are counted.
    const mails = await bed.dataSource.query(
      `SELECT subject FROM mail_message WHERE to_address = $1 AND subject LIKE '%payouts in USD waiting%'`,
      [boss.email],
    );
    expect(mails).toEqual([{ subject: expect.stringMatching(/^Merchant 2 of .*: retiros en USD en espera \/ payouts in USD waiting$/) }]);
    const { balances } = (await shop.client.get(`/merchant/${merchantId}/balance`)).body as { balances: Json[] };
    expect(balances.find((b) => b.currency === 'USD')).toMatchObject({ available: 50, inTransit: 0 });
    // A USD payout made before such payouts were refused, waiting for Itaú's file, beside a BRL one.
    const brl = await payout(shop, '12.34');
    const [account] = await bed.dataSource.query(`SELECT * FROM settlement_account WHERE merchant_id = $1 AND currency = 'USD'`, [
      merchantId,
    ]);
    const older = crypto.randomUUID();
    await bed.dataSource.query(
      `INSERT INTO payout (payout_id, business_id, merchant_id, currency, amount, status, rail, origin, settlement_account_id, bank_id,
                           account_number, account_type, holder_document, transaction_count, created_at, updated_at)
       VALUES ($1, $2, $3, 'USD', 700, 'IN_TRANSIT', 'BANK_FILE', 'REQUESTED', $4, $5, $6, 'CHECKING', $7, 0, now(), now())`,
      [older, businessId, merchantId, account.settlement_account_id, ITAU, account.account_number, account.holder_document],
    );
    const exported = await admin('payouts:export', '--bank', ITAU, '--business', businessId, '--out', dir);
    expect([exported.status, exported.stderr]).toEqual([0, '']);
    const batches = exported.json.batches as Json[];
    expect(batches.map((b) => [b.totals, b.payouts, b.sha256.cnab240 === null])).toEqual(
      expect.arrayContaining([
        [[{ currency: 'BRL', amount: 12.34 }], 1, false],
        [[{ currency: 'USD', amount: 7 }], 1, true],
      ]),
    );
    expect(batches).toHaveLength(2);
    const brlBatch = batches.find((b) => b.totals[0].currency === 'BRL')!;
    const cnab = fs.readFileSync(brlBatch.files[1] as string, 'latin1');
    expect(cnab).toContain(bankReferenceOf(brl.payoutId as string));
    expect(cnab).not.toContain(bankReferenceOf(older));
  });
});
