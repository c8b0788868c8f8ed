import { clientFor, createTenant, SignedClient } from '@pcs/testing';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { admin } from './operator-cli';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The operator's money commands (contract §19): prices, adjustments, the bank file and its answers, the daily run. */
describe('operator commands for money after the collection', () => {
  let bed: Testbed;
  let merchant: SignedClient;
  let merchantId: string;
  let businessId: string;
  let brou: string;

  beforeAll(async () => {
    // Payouts of this API wait in bank files: the operator's commands take it from there.
    bed = await testbed({ settlement: { payoutRail: 'BANK_FILE' }, payer: { firstName: 'Op', lastName: 'Erator' } });
    ({ merchant } = bed);
    merchantId = bed.tenant.merchants[0].merchantId;
    businessId = bed.tenant.business.businessId;
    brou = ((await merchant.get('/bank?country=URY')).body as { bankId: string; code: string }[]).find((b) => b.code === '001')!.bankId;
    await merchant.put(`/merchant/${merchantId}/settlement-account/UYU`, {
      bankId: brou,
      accountNumber: '00123456700001',
      accountType: 'SAVINGS',
    });
  });
  afterAll(() => bed.close());

  const audit = async (action: string) =>
    bed.dataSource.query(
      `SELECT email, action, target, result, detail FROM dashboard_audit WHERE business_id = $1 AND action = $2 ORDER BY audit_id`,
      [businessId, action],
    );

  it('refuses a number written any other way than digits and a point, naming the option, and changes nothing (contract §28)', async () => {
    const relationships = (await merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Json[];
    const visa = relationships.find((r) => r.countryProcessor.paymentMethod.paymentMethodName === 'VISA')!;
    const priced = (await merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body.find(
      (r: Json) => r.merchantCountryProcessorId === visa.merchantCountryProcessorId,
    ).pricing;
    const price = ['--merchant', merchantId, '--country-processor', visa.merchantCountryProcessorId];
    // Number('0x10') is 16, Number('1e2') 100, Number('0b11') 3: none of them is a percentage or an amount here.
    const cases: [string[], string][] = [
      [['pricing:set', ...price, '--percentage', '0x10'], '--percentage'],
      [['pricing:set', ...price, '--percentage', '2', '--fixed', '1e2', '--currency', 'UYU'], '--fixed'],
      [['pricing:dispute-fee', '--processor', 'SANDBOX', '--currency', 'UYU', '--amount', '0b11'], '--amount'],
      [['balance:adjust', '--merchant', merchantId, '--currency', 'UYU', '--amount=+5', '--reason', 'plus sign'], '--amount'],
    ];
    for (const [args, option] of cases) {
      const refused = await admin(...args);
      expect([refused.status, refused.stderr]).toEqual([1, expect.stringContaining(option)]);
    }
    const after = (await merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body.find(
      (r: Json) => r.merchantCountryProcessorId === visa.merchantCountryProcessorId,
    ).pricing;
    expect(after).toEqual(priced);
    const [fees] = await bed.dataSource.query(
      `SELECT count(*)::int AS n FROM balance_transaction WHERE merchant_id = $1 AND description = 'plus sign'`,
      [merchantId],
    );
    expect(fees.n).toBe(0);
  });

  it('sets a merchant’s price (pricing:set), shown on its country processor and in the audit log; refuses a bad one', async () => {
    const relationships = (await merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Json[];
    const oca = relationships.find((r) => r.countryProcessor.paymentMethod.paymentMethodName === 'OCA')!;
    const set = await admin(
      'pricing:set',
      '--merchant',
      merchantId,
      '--country-processor',
      oca.merchantCountryProcessorId,
      '--percentage',
      '3.49',
      '--fixed',
      '10',
      '--currency',
      'UYU',
      '--settlement-delay-days',
      '0',
    );
    expect(set.status).toBe(0);
    expect(set.json).toEqual({
      merchantId,
      merchantCountryProcessorId: oca.merchantCountryProcessorId,
      countryProcessorId: oca.countryProcessor.countryProcessorId,
      pricing: { percentage: 3.49, fixed: [{ currency: 'UYU', amount: 10 }], settlementDelayDays: 0 },
    });
    // Without --fixed or a delay, what was set stays.
    expect(
      (await admin('pricing:set', '--merchant', merchantId, '--country-processor', oca.merchantCountryProcessorId, '--percentage', '2.5'))
        .json.pricing,
    ).toEqual({
      percentage: 2.5,
      fixed: [{ currency: 'UYU', amount: 10 }],
      settlementDelayDays: 0,
    });
    const shown = (await merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body.find(
      (r: Json) => r.merchantCountryProcessorId === oca.merchantCountryProcessorId,
    );
    expect(shown.pricing).toEqual({ percentage: 2.5, fixed: [{ currency: 'UYU', amount: 10 }], settlementDelayDays: 0 });
    const refused = await admin(
      'pricing:set',
      '--merchant',
      merchantId,
      '--country-processor',
      oca.merchantCountryProcessorId,
      '--percentage',
      '20.5',
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('--percentage must be 0 to 20');
    expect(
      (await admin('pricing:set', '--merchant', merchantId, '--country-processor', crypto.randomUUID(), '--percentage', '1')).status,
    ).toBe(1);
    expect((await audit('pricing:set')).map((a: Json) => [a.email, a.result])).toEqual([
      ['operator:ana.ops', 'succeeded'],
      ['operator:ana.ops', 'succeeded'],
      ['operator:ana.ops', 'refused'],
      ['operator:ana.ops', 'refused'],
    ]);
  });

  it('corrects a balance with an ADJUSTMENT available at once (balance:adjust), audited', async () => {
    const before = (await merchant.get(`/merchant/${merchantId}/balance`)).body.balances.find((b: Json) => b.currency === 'UYU').available;
    const adjusted = await admin(
      'balance:adjust',
      '--merchant',
      merchantId,
      '--currency',
      'UYU',
      '--amount=-2.25',
      '--reason',
      'fee charged twice in October',
    );
    expect(adjusted.status).toBe(0);
    expect(adjusted.json).toMatchObject({
      merchantId,
      currency: 'UYU',
      type: 'ADJUSTMENT',
      amount: -2.25,
      net: -2.25,
      description: 'fee charged twice in October',
    });
    const after = (await merchant.get(`/merchant/${merchantId}/balance`)).body.balances.find((b: Json) => b.currency === 'UYU').available;
    expect(Math.round((after - before) * 100)).toBe(-225);
    expect(
      (await admin('balance:adjust', '--merchant', merchantId, '--currency', 'UYU', '--amount', '1.005', '--reason', 'x')).status,
    ).toBe(1);
    expect((await admin('balance:adjust', '--merchant', merchantId, '--currency', 'UYU', '--amount', '0', '--reason', 'x')).status).toBe(1);
    expect((await audit('balance:adjust')).map((a: Json) => a.result)).toEqual(['succeeded']);
  });

  it('exports the bank file once (payouts:export), records the bank’s answers (payout:mark-paid, mark-failed, mark-returned)', async () => {
    // A dozen operator commands: on a busy 2-core machine, more than the default 60 s.
    await bed.paidIntent(1000);
    const first = (await merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU', amount: 300 })).body;
    const second = (await merchant.post(`/merchant/${merchantId}/payout`, { currency: 'UYU', amount: 200.5 })).body;
    // In transit from the transaction that made them, waiting in the bank's file.
    expect([first.status, second.status]).toEqual(['IN_TRANSIT', 'IN_TRANSIT']);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcs-bank-file-'));
    const exported = await admin('payouts:export', '--bank', brou, '--business', businessId, '--out', dir);
    expect(exported.status).toBe(0);
    const [batch, ...others] = exported.json.batches as Json[];
    expect(others).toEqual([]);
    expect(batch).toMatchObject({ businessId, payouts: 2, totals: [{ currency: 'UYU', amount: 500.5 }], sha256: { cnab240: null } });
    expect(batch.files).toEqual([path.join(dir, `URY-001-${businessId}-${String(batch.sequence).padStart(6, '0')}.csv`)]);
    const csv = fs.readFileSync(batch.files[0], 'utf8');
    expect(crypto.createHash('sha256').update(csv).digest('hex')).toBe(batch.sha256.csv);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('batchId,payoutId,bankCode,bankName,accountType,accountNumber,holderDocument,currency,amount,createdAt');
    expect(lines.find((l) => l.includes(first.payoutId))).toContain(
      `${batch.batchId},${first.payoutId},001,Banco de la República Oriental del Uruguay (BROU),SAVINGS,00123456700001,,UYU,300,`,
    );
    expect(lines.find((l) => l.includes(second.payoutId))).toContain(',UYU,200.5,');
    // Exported once: a second export finds nothing of them; the batch is written again, byte for byte, on request.
    expect((await admin('payouts:export', '--bank', brou, '--business', businessId, '--out', dir)).json).toEqual({
      bankId: brou,
      batches: [],
    });
    fs.rmSync(batch.files[0]);
    const again = await admin('payouts:export', '--batch', batch.batchId, '--out', dir);
    expect(again.json).toMatchObject({ batchId: batch.batchId, files: batch.files, written: 'again' });
    expect(fs.readFileSync(batch.files[0], 'utf8')).toBe(csv);
    expect((await audit('payouts:export')).map((a: Json) => [a.target, a.result, a.detail.again ?? false])).toEqual([
      [batch.batchId, 'succeeded', false],
      [batch.batchId, 'succeeded', true],
    ]);

    const paid = await admin('payout:mark-paid', '--payout', first.payoutId, '--bank-reference', 'BROU-TRX-0001');
    expect(paid.status).toBe(0);
    expect(paid.json).toMatchObject({ payoutId: first.payoutId, status: 'PAID', bankReference: 'BROU-TRX-0001' });
    const balance = async () =>
      (await merchant.get(`/merchant/${merchantId}/balance`)).body.balances.find((b: Json) => b.currency === 'UYU');
    const before = await balance();
    const failed = await admin('payout:mark-failed', '--payout', second.payoutId, '--reason', 'cuenta inexistente');
    expect(failed.json).toMatchObject({ status: 'FAILED', failureReason: 'cuenta inexistente' });
    const after = await balance();
    expect(Math.round((after.available - before.available) * 100)).toBe(20050);
    expect((await admin('payout:mark-paid', '--payout', second.payoutId, '--bank-reference', 'late')).status).toBe(1);
    expect((await admin('payout:mark-paid', '--payout', crypto.randomUUID(), '--bank-reference', 'x')).status).toBe(1);
    expect((await audit('payout:mark-failed')).map((a: Json) => [a.target, a.result])).toEqual([[second.payoutId, 'succeeded']]);

    // The bank returns the paid one days later: RETURNED, its amount back in available, once; a failed one cannot be returned.
    expect((await admin('payout:mark-returned', '--payout', second.payoutId, '--reason', 'x')).status).toBe(1);
    const returned = await admin('payout:mark-returned', '--payout', first.payoutId, '--reason', 'cuenta cerrada por el titular');
    expect(returned.json).toMatchObject({ payoutId: first.payoutId, status: 'RETURNED', failureReason: 'cuenta cerrada por el titular' });
    expect(Math.round(((await balance()).available - after.available) * 100)).toBe(30000);
    expect((await admin('payout:mark-returned', '--payout', first.payoutId, '--reason', 'again')).status).toBe(1);
    expect(Math.round(((await balance()).available - after.available) * 100)).toBe(30000);
    const types = ((await merchant.get(`/event?merchantId=${merchantId}&limit=100`)).body[0].results as Json[]).map((e) => e.type);
    expect(types).toContain('payout.returned');
    const own = (await merchant.get(`/balance-transaction?payoutId=${first.payoutId}&merchantId=${merchantId}`)).body[0].results as Json[];
    expect(own.map((t) => [t.type, t.amount]).sort()).toEqual([
      ['PAYOUT', -300],
      ['PAYOUT_FAILURE', 300],
    ]);
    expect((await audit('payout:mark-returned')).map((a: Json) => [a.target, a.result])).toEqual([
      [second.payoutId, 'refused'],
      [first.payoutId, 'succeeded'],
      [first.payoutId, 'refused'],
    ]);
  }, 180_000);

  it('runs a country’s daily settlement for one merchant now (settlement:run), and reconciles on request (reconcile)', async () => {
    const [other] = (await createTenant(bed.app)).merchants;
    const client = clientFor(bed.app, other);
    await client.put(`/merchant/${other.merchantId}/settlement-account/UYU`, {
      bankId: brou,
      accountNumber: '00123456700002',
      accountType: 'SAVINGS',
    });
    const run = await admin('settlement:run', '--country', 'URY', '--date', '2026-11-25', '--merchant', other.merchantId);
    expect(run.status).toBe(0);
    expect(run.json).toMatchObject({ country: 'URY', date: '2026-11-25', payouts: [], failures: [] });
    expect((await admin('settlement:run', '--country', 'CHL')).status).toBe(1);
    // No Mercado Pago account: the run is kept, FAILED, and says why.
    const reconciled = await admin('reconcile', '--merchant', merchantId, '--from', '2026-11-24', '--to', '2026-11-24');
    expect(reconciled.status).toBe(0);
    expect(reconciled.json).toMatchObject({ merchantId, provider: 'MERCADO_PAGO', from: '2026-11-24', to: '2026-11-24', status: 'FAILED' });
    expect((await merchant.get(`/reconciliation-run/${reconciled.json.runId}`)).body.status).toBe('FAILED');
    expect((await admin('reconcile', '--merchant', merchantId, '--from', '2026-11-25', '--to', '2026-11-24')).status).toBe(1);
    // Both are audited with the operator's name (contract §27): the reconciliation in its business's log.
    expect((await audit('reconcile')).map((a: Json) => [a.email, a.target, a.result])).toEqual([
      ['operator:ana.ops', merchantId, 'succeeded'],
    ]);
    const [settled] = await bed.dataSource.query(
      `SELECT email, target, result, detail FROM dashboard_audit WHERE action = 'settlement:run' AND target = $1`,
      [other.merchantId],
    );
    expect(settled).toMatchObject({ email: 'operator:ana.ops', result: 'succeeded', detail: { country: 'URY', date: '2026-11-25' } });
  });
});
