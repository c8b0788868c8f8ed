import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@pcs/events';
import { discrepancyObject, FindingSide, ProcessorFinding } from '../domain/processor-finding';
import { ProcessorFindingRepository } from '../ledger/processor-finding.repository';
import { Transaction } from '@pcs/kernel';
import { managerOf, transactionOf } from '@pcs/database';

type StoredSide = Omit<FindingSide, 'date'> & { date: string | null };

const stored = (side: FindingSide | null): StoredSide | null => side && { ...side, date: side.date?.toISOString() ?? null };
const restored = (side: StoredSide | null): FindingSide | null =>
  side && { ...side, currency: side.currency ?? null, date: side.date ? new Date(side.date) : null };

@Injectable()
export class TypeOrmProcessorFindingRepository extends ProcessorFindingRepository {
  constructor(private readonly events: EventRecorder) {
    super();
  }

  async record(tx: Transaction, finding: ProcessorFinding): Promise<boolean> {
    const manager = managerOf(tx);
    const rows = await manager.query<unknown[]>(
      `INSERT INTO processor_finding (finding_id, business_id, merchant_id, gateway, kind, external_id, ours, theirs, found_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (gateway, kind, external_id) DO NOTHING RETURNING finding_id`,
      [
        finding.findingId,
        finding.businessId,
        finding.merchantId,
        finding.gateway,
        finding.kind,
        finding.externalId.slice(0, 255),
        JSON.stringify(stored(finding.ours)),
        JSON.stringify(stored(finding.theirs)),
        finding.foundAt,
      ],
    );
    if (rows.length === 0) return false;
    await this.events.record(transactionOf(manager), {
      type: 'reconciliation.discrepancy',
      businessId: finding.businessId,
      merchantId: finding.merchantId,
      subjectId: finding.findingId,
      object: discrepancyObject(finding),
      at: finding.foundAt,
    });
    return true;
  }

  async unreported(tx: Transaction, merchantId: string, gateway: string): Promise<ProcessorFinding[]> {
    const manager = managerOf(tx);
    const rows = await manager.query<
      {
        finding_id: string;
        business_id: string;
        merchant_id: string;
        gateway: string;
        kind: 'PROCESSOR_OVER_REFUND';
        external_id: string;
        ours: StoredSide | null;
        theirs: StoredSide | null;
        found_at: Date;
      }[]
    >(
      `SELECT finding_id, business_id, merchant_id, gateway, kind, external_id, ours, theirs, found_at FROM processor_finding
        WHERE merchant_id = $1 AND gateway = $2 AND run_id IS NULL ORDER BY found_at, finding_id`,
      [merchantId, gateway],
    );
    return rows.map((row) => ({
      findingId: row.finding_id,
      businessId: row.business_id,
      merchantId: row.merchant_id,
      gateway: row.gateway,
      kind: row.kind,
      externalId: row.external_id,
      ours: restored(row.ours),
      theirs: restored(row.theirs),
      foundAt: row.found_at,
    }));
  }

  async markReported(tx: Transaction, findingIds: readonly string[], runId: string): Promise<void> {
    const manager = managerOf(tx);
    if (findingIds.length === 0) return;
    await manager.query(`UPDATE processor_finding SET run_id = $2 WHERE finding_id = ANY($1::uuid[]) AND run_id IS NULL`, [
      findingIds,
      runId,
    ]);
  }
}
