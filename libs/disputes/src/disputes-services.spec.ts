import type { EventRecorder } from '@pcs/events';
import type { GatewayRegistry } from '@pcs/gateways';
import type { JobQueue } from '@pcs/jobs';
import {
  asBusinessId,
  asMerchantId,
  Caller,
  Currency,
  DisputeProcessor,
  DomainError,
  TenantScope,
  Transaction,
  TransactionStatus,
} from '@pcs/kernel';
import type { MerchantAccess } from '@pcs/merchants';
import type { IntentDispute, IntentDisputes, PayinLedgerService } from '@pcs/payments';
import type { BalancesService } from '@pcs/settlement';
import { multipartBody, pdfFile } from '@pcs/testing';
import { DisputeChanges } from './dispute-changes';
import { DisputeReports } from './dispute-reports.service';
import { DisputeRepository, NewEvidence } from './dispute.repository';
import { DisputesService } from './disputes.service';
import { Dispute, EvidenceFile } from './domain/dispute';
import { MemoryUnitOfWork } from '@pcs/testing/unit-of-work';

/**
 * The disputes context's services on their ports in memory (as payments has): a case opened once
 * however often its processor tells it, what its change books (PLATFORM flow only; the debit the
 * payment intent decides, contract §28; the fee once; a won case given back), evidence kept within
 * the limits and sent once to a processor that takes it, and tenancy. Over PostgreSQL and HTTP:
 * test/disputes, test/dispute-money, test/mercado-pago and test/dlocal e2e specs.
 */
const BUSINESS = asBusinessId('00000000-0000-4000-8000-0000000000b1');
const MERCHANT = asMerchantId('00000000-0000-4000-8000-0000000000a1');
const caller: Caller = { credentialId: 'c', businessId: BUSINESS, merchantId: null };
const stranger: Caller = { credentialId: 's', businessId: asBusinessId('00000000-0000-4000-8000-0000000000b2'), merchantId: null };

class MemoryDisputes extends DisputeRepository {
  readonly rows = new Map<string, ReturnType<Dispute['snapshot']>>();
  readonly files = new Map<string, (NewEvidence & { sentAt: Date | null })[]>();
  read(id: string): Dispute | null {
    const row = this.rows.get(id);
    return row ? Dispute.restore(row) : null;
  }
  find(_tx: Transaction, disputeId: string, scope: TenantScope | null): Promise<Dispute | null> {
    const found = this.read(disputeId);
    const d = found?.snapshot();
    if (!d || (scope && (d.businessId !== scope.businessId || (scope.merchantId && d.merchantId !== scope.merchantId))))
      return Promise.resolve(null);
    return Promise.resolve(found);
  }
  lockCase(_tx: Transaction, processor: DisputeProcessor, reference: string): Promise<Dispute | null> {
    const row = [...this.rows.values()].find((d) => d.processor === processor && d.processorReference === reference);
    return Promise.resolve(row ? Dispute.restore(row) : null);
  }
  insert(_tx: Transaction, dispute: Dispute): Promise<boolean> {
    const d = dispute.snapshot();
    if ([...this.rows.values()].some((r) => r.processor === d.processor && r.processorReference === d.processorReference))
      return Promise.resolve(false);
    this.rows.set(dispute.id, d);
    return Promise.resolve(true);
  }
  save(_tx: Transaction, dispute: Dispute): Promise<void> {
    this.rows.set(dispute.id, dispute.snapshot());
    return Promise.resolve();
  }
  list = (): Promise<never> => Promise.reject(new Error('not used'));
  evidenceOf(_tx: Transaction, disputeIds: readonly string[]): Promise<Map<string, EvidenceFile[]>> {
    return Promise.resolve(
      new Map(
        disputeIds.map((id) => [
          id,
          (this.files.get(id) ?? []).map((f) => ({
            evidenceId: f.evidenceId,
            fileName: f.fileName,
            contentType: f.contentType,
            size: f.content.length,
            sha256: '',
            uploadedAt: f.uploadedAt,
            sentAt: f.sentAt,
          })),
        ]),
      ),
    );
  }
  addEvidence(_tx: Transaction, disputeId: string, files: readonly NewEvidence[]): Promise<void> {
    const kept = this.files.get(disputeId) ?? [];
    for (const file of files) if (!kept.some((k) => k.evidenceId === file.evidenceId)) kept.push({ ...file, sentAt: null });
    this.files.set(disputeId, kept);
    return Promise.resolve();
  }
  evidenceContents(_tx: Transaction, disputeId: string) {
    return Promise.resolve(
      (this.files.get(disputeId) ?? []).map(({ evidenceId, fileName, contentType, content }) => ({
        evidenceId,
        fileName,
        contentType,
        content,
      })),
    );
  }
  markEvidenceSent(_tx: Transaction, evidenceIds: readonly string[], at: Date): Promise<void> {
    for (const kept of this.files.values()) for (const file of kept) if (evidenceIds.includes(file.evidenceId)) file.sentAt = at;
    return Promise.resolve();
  }
  ofCharges(_tx: Transaction, merchantId: string, chargeIds: readonly string[]): Promise<Dispute[]> {
    return Promise.resolve(
      [...this.rows.values()].filter((d) => d.merchantId === merchantId && chargeIds.includes(d.chargeId)).map(Dispute.restore),
    );
  }
}

/** The collection disputed: an approved PAYIN of the merchant at `processor`, in PLATFORM flow unless said. */
function chargeAt(processor: string, fundsFlow: 'PLATFORM' | 'MERCHANT' = 'PLATFORM') {
  return {
    id: 'charge-1',
    status: TransactionStatus.APPROVED,
    snapshot: () => ({
      transactionId: 'charge-1',
      businessId: BUSINESS,
      merchantId: MERCHANT,
      paymentIntentId: 'pi-1',
      transactionType: 'PAYIN',
      status: TransactionStatus.APPROVED,
      gateway: processor,
      currency: Currency.UYU,
      fundsFlow,
    }),
  };
}

function disputesWith(options: { processor?: string; fundsFlow?: 'PLATFORM' | 'MERCHANT'; takesEvidence?: boolean; debit?: number } = {}) {
  const processor = options.processor ?? 'MERCADO_PAGO';
  const disputes = new MemoryDisputes();
  const booked: { type: string; target?: number; why?: string }[] = [];
  const balances = {
    debitDispute: (_tx: Transaction, d: { target: number; why: string }) => {
      booked.push({ type: 'debit', target: d.target, why: d.why });
      return Promise.resolve(0);
    },
    chargeDisputeFee: () => {
      booked.push({ type: 'fee' });
      return Promise.resolve(true);
    },
  } as unknown as BalancesService;
  const shown: IntentDispute[] = [];
  const intents = {
    record: (_tx: Transaction, _id: string, dispute: IntentDispute) => {
      shown.push(dispute);
      return Promise.resolve();
    },
    // What the payment decides the processor takes (contract §28): here, the amount capped at 70.00 (30.00 refunded there).
    debitTarget: (_tx: Transaction, _id: string, dispute: IntentDispute) =>
      Promise.resolve(Math.min(dispute.amount, options.debit ?? 7_000)),
    lock: () => Promise.resolve({ refundable: { isZero: () => false, minor: 10_000 } }),
  } as unknown as IntentDisputes;
  const events: string[] = [];
  const recorder = {
    recordAll: (_tx: Transaction, recorded: { type: string }[]) => {
      events.push(...recorded.map((e) => e.type));
      return Promise.resolve([]);
    },
  } as unknown as EventRecorder;
  const changes = new DisputeChanges(disputes, balances, intents, recorder);
  const ledger = {
    get: (_tx: Transaction, id: string) => Promise.resolve(id === 'charge-1' ? chargeAt(processor, options.fundsFlow) : null),
  } as unknown as PayinLedgerService;
  const reports = new DisputeReports(new MemoryUnitOfWork(), disputes, ledger, intents, changes);
  const sent: string[][] = [];
  const registry = {
    // A processor with the TakesDisputeEvidence capability, or (takesEvidence: false) without it.
    get: () => ({
      displayName: 'Mercado Pago',
      ...((options.takesEvidence ?? true)
        ? {
            submitDisputeEvidence: (_m: string, _r: string, files: { fileName: string }[]) => {
              sent.push(files.map((f) => f.fileName));
              return Promise.resolve();
            },
          }
        : {}),
    }),
  } as unknown as GatewayRegistry;
  const access = {
    scopeOf: (who: Caller) => Promise.resolve({ businessId: who.businessId, merchantId: who.merchantId }),
  } as unknown as MerchantAccess;
  const service = new DisputesService(new MemoryUnitOfWork(), disputes, access, registry, changes, {} as JobQueue);
  return { disputes, reports, service, booked, shown, events, sent };
}

/** The case's due date, the same in every report of it (a new one would be news). */
const DUE = new Date(Date.now() + 7 * 86_400_000);
const report = (status: 'NEEDS_RESPONSE' | 'UNDER_REVIEW' | 'WON' | 'LOST', amount = 10_000) => ({
  reference: 'CB-1',
  chargeId: 'charge-1',
  amount,
  currency: Currency.UYU,
  reason: 'FRAUDULENT' as const,
  status,
  evidenceDueBy: DUE,
});

describe('DisputeReports and DisputeChanges (cases as processors tell them, on their ports in memory)', () => {
  it('opens a case once however often it is told, debiting what the payment says the processor takes, with its fee once', async () => {
    const { reports, disputes, booked, shown, events } = disputesWith();
    expect(await reports.apply(MERCHANT, 'MERCADO_PAGO', report('NEEDS_RESPONSE'))).toBe('applied');
    expect(await reports.apply(MERCHANT, 'MERCADO_PAGO', report('NEEDS_RESPONSE'))).toBe('replayed');
    expect(disputes.rows.size).toBe(1);
    expect(booked).toEqual([{ type: 'fee' }, { type: 'debit', target: 7_000, why: 'opened (FRAUDULENT)' }]);
    expect(shown).toEqual([{ disputeId: expect.any(String), status: 'NEEDS_RESPONSE', amount: 10_000 }]);
    expect(events).toEqual(['dispute.created']);
  });

  it('follows a changed amount and the decision: a won case gives its debit back, a lost one keeps it', async () => {
    const { reports, booked, events } = disputesWith();
    await reports.apply(MERCHANT, 'MERCADO_PAGO', report('NEEDS_RESPONSE'));
    await reports.apply(MERCHANT, 'MERCADO_PAGO', report('NEEDS_RESPONSE', 5_000));
    await reports.apply(MERCHANT, 'MERCADO_PAGO', report('WON', 5_000));
    expect(booked.filter((b) => b.type === 'debit').map((b) => [b.target, b.why])).toEqual([
      [7_000, 'opened (FRAUDULENT)'],
      [5_000, 'amount changed by the processor'],
      [0, 'won'],
    ]);
    expect(events).toEqual(['dispute.created', 'dispute.updated', 'dispute.won']);
    // A won case stays won.
    expect(await reports.apply(MERCHANT, 'MERCADO_PAGO', report('LOST', 5_000))).toBe('replayed');
  });

  it('moves no money for a payment collected into the merchant’s own account, and opens nothing of another merchant or processor', async () => {
    const merchantFlow = disputesWith({ fundsFlow: 'MERCHANT' });
    expect(await merchantFlow.reports.apply(MERCHANT, 'MERCADO_PAGO', report('LOST'))).toBe('applied');
    expect(merchantFlow.booked).toEqual([]);
    const { reports, disputes } = disputesWith();
    expect(await reports.apply(asMerchantId('00000000-0000-4000-8000-0000000000a9'), 'MERCADO_PAGO', report('NEEDS_RESPONSE'))).toBe(
      'unknown',
    );
    expect(await reports.apply(MERCHANT, 'DLOCAL', report('NEEDS_RESPONSE'))).toBe('unknown');
    expect(await reports.apply(MERCHANT, 'NOT_A_PROCESSOR', report('NEEDS_RESPONSE'))).toBe('unknown');
    expect(disputes.rows.size).toBe(0);
  });
});

describe('DisputesService (the merchant’s side, on its ports in memory)', () => {
  const upload = (...names: string[]) =>
    multipartBody(names.map((fileName) => ({ fileName, contentType: 'application/pdf', content: pdfFile(fileName) })));

  it('keeps evidence once per request, sends it once to a processor that takes it, and then the case is under review', async () => {
    const { reports, service, disputes, sent } = disputesWith();
    await reports.apply(MERCHANT, 'MERCADO_PAGO', report('NEEDS_RESPONSE'));
    const [disputeId] = [...disputes.rows.keys()];
    const files = upload('delivery.pdf', 'invoice.pdf');
    await service.addEvidence(caller, disputeId, files.contentType, files.body, 'op-1');
    const again = await service.addEvidence(caller, disputeId, files.contentType, files.body, 'op-1');
    expect(again.evidence.map((f) => f.fileName)).toEqual(['delivery.pdf', 'invoice.pdf']);
    const submitted = await service.submit(caller, disputeId);
    expect(submitted.dispute.status).toBe('UNDER_REVIEW');
    expect(sent).toEqual([['delivery.pdf', 'invoice.pdf']]);
    expect(submitted.evidence.every((f) => f.sentAt !== null)).toBe(true);
    expect(await service.submit(caller, disputeId).catch((e: DomainError) => e.code)).toBe('DISPUTE_INVALID_STATE');
  });

  it('sends merchants of a processor that takes evidence only in its own dashboard there, and lets them accept the loss', async () => {
    const { reports, service, disputes } = disputesWith({ processor: 'DLOCAL', takesEvidence: false });
    await reports.apply(MERCHANT, 'DLOCAL', report('NEEDS_RESPONSE'));
    const [disputeId] = [...disputes.rows.keys()];
    const files = upload('proof.pdf');
    await service.addEvidence(caller, disputeId, files.contentType, files.body);
    expect(await service.submit(caller, disputeId).catch((e: DomainError) => e.code)).toBe('DISPUTE_EVIDENCE_AT_PROCESSOR');
    expect((await service.accept(caller, disputeId)).dispute.status).toBe('ACCEPTED');
  });

  it('answers another business’s dispute as not found, and refuses a submission without evidence', async () => {
    const { reports, service, disputes } = disputesWith();
    await reports.apply(MERCHANT, 'MERCADO_PAGO', report('NEEDS_RESPONSE'));
    const [disputeId] = [...disputes.rows.keys()];
    expect(await service.get(stranger, disputeId).catch((e: DomainError) => e.code)).toBe('DISPUTE_NOT_FOUND');
    expect(await service.accept(stranger, disputeId).catch((e: DomainError) => e.code)).toBe('DISPUTE_NOT_FOUND');
    expect(await service.submit(caller, disputeId).catch((e: DomainError) => e.code)).toBe('DISPUTE_NO_EVIDENCE');
  });
});
