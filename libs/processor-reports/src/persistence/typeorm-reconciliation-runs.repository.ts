import { Injectable } from '@nestjs/common';
import { Currency, Page, pageOffset, PageRequest, TenantScope, Transaction } from '@pcs/kernel';
import { EntityManager, In } from 'typeorm';
import type { Discrepancy, DiscrepancyKind, Reconciliation, ReportTotals, Side } from '../domain/reconciliation';
import type { ReconciliationRun, RunStatus } from '../domain/reconciliation-run';
import { ReconciliationRunRepository } from '../reconciliation-runs.repository';
import { ReconciliationDiscrepancyOrmEntity, ReconciliationRunOrmEntity, StoredSide } from './reconciliation-run.orm-entity';
import { managerOf } from '@pcs/database';

const stored = (side: Side | null): StoredSide | null => side && { ...side, date: side.date?.toISOString() ?? null };
const restored = (side: StoredSide | null): Side | null =>
  side && { ...side, currency: (side.currency as Currency | null) ?? null, date: side.date ? new Date(side.date) : null };

@Injectable()
export class TypeOrmReconciliationRunRepository extends ReconciliationRunRepository {
  async start(
    tx: Transaction,
    run: Pick<ReconciliationRun, 'runId' | 'businessId' | 'merchantId' | 'provider' | 'from' | 'to' | 'createdAt'>,
  ): Promise<void> {
    const manager = managerOf(tx);
    await manager.insert(ReconciliationRunOrmEntity, {
      runId: run.runId,
      businessId: run.businessId,
      merchantId: run.merchantId,
      provider: run.provider,
      fromDate: run.from,
      toDate: run.to,
      status: 'RUNNING',
      matched: 0,
      ignored: 0,
      failureReason: null,
      createdAt: run.createdAt,
      finishedAt: null,
    });
  }

  async complete(tx: Transaction, runId: string, result: Reconciliation, at: Date): Promise<void> {
    const manager = managerOf(tx);
    await manager.update(
      ReconciliationRunOrmEntity,
      { runId },
      {
        status: 'COMPLETED',
        matched: result.matched,
        ignored: result.ignored,
        finishedAt: at,
        totals: result.totals && { ...result.totals },
      },
    );
    if (result.discrepancies.length > 0)
      await manager.insert(
        ReconciliationDiscrepancyOrmEntity,
        result.discrepancies.map((d, position) => ({
          runId,
          position,
          kind: d.kind,
          externalId: d.externalId.slice(0, 255),
          ours: stored(d.ours),
          theirs: stored(d.theirs),
        })),
      );
  }

  async fail(tx: Transaction, runId: string, reason: string, at: Date): Promise<void> {
    const manager = managerOf(tx);
    await manager.update(ReconciliationRunOrmEntity, { runId }, { status: 'FAILED', failureReason: reason.slice(0, 512), finishedAt: at });
  }

  async lastCompletedDay(tx: Transaction, merchantId: string, provider: string): Promise<string | null> {
    const manager = managerOf(tx);
    // Served by reconciliation_run_completed_idx.
    const [row] = await manager.query<{ to_date: string }[]>(
      `SELECT to_char(to_date, 'YYYY-MM-DD') AS to_date FROM reconciliation_run
        WHERE merchant_id = $1 AND provider = $2 AND status = 'COMPLETED' ORDER BY to_date DESC LIMIT 1`,
      [merchantId, provider],
    );
    return row?.to_date ?? null;
  }

  async supersede(tx: Transaction, runId: string, merchantId: string, provider: string, from: string, to: string): Promise<void> {
    const manager = managerOf(tx);
    await manager.query(
      `WITH replaced AS (
         UPDATE reconciliation_run SET superseded_by = $1
          WHERE merchant_id = $2 AND provider = $3 AND run_id <> $1 AND from_date >= $4 AND to_date <= $5 AND superseded_by IS NULL
          RETURNING run_id)
       DELETE FROM reconciliation_discrepancy WHERE run_id IN (SELECT run_id FROM replaced)`,
      [runId, merchantId, provider, from, to],
    );
  }

  async firstAnnounced(
    tx: Transaction,
    merchantId: string,
    provider: string,
    discrepancies: readonly Discrepancy[],
    at: Date,
  ): Promise<Discrepancy[]> {
    const manager = managerOf(tx);
    if (discrepancies.length === 0) return [];
    const keys = discrepancies.map((d) => `${d.kind}\n${d.externalId.slice(0, 255)}`);
    const rows = await manager.query<{ kind: string; external_id: string }[]>(
      `INSERT INTO reconciliation_announcement (merchant_id, provider, kind, external_id, announced_at)
       SELECT $1, $2, k.kind, k.external_id, $5 FROM unnest($3::text[], $4::text[]) AS k(kind, external_id)
       ON CONFLICT DO NOTHING RETURNING kind, external_id`,
      [merchantId, provider, discrepancies.map((d) => d.kind), discrepancies.map((d) => d.externalId.slice(0, 255)), at],
    );
    const fresh = new Set(rows.map((row) => `${row.kind}\n${row.external_id}`));
    return discrepancies.filter((_, i) => fresh.has(keys[i]));
  }

  async find(tx: Transaction, runId: string): Promise<ReconciliationRun | null> {
    const manager = managerOf(tx);
    const row = await manager.findOneBy(ReconciliationRunOrmEntity, { runId });
    return row ? (await this.withDiscrepancies(manager, [row]))[0] : null;
  }

  async list(tx: Transaction, scope: TenantScope, page: PageRequest): Promise<Page<ReconciliationRun>> {
    const manager = managerOf(tx);
    const [rows, total] = await manager.findAndCount(ReconciliationRunOrmEntity, {
      where: scope.merchantId ? { merchantId: scope.merchantId } : { businessId: scope.businessId },
      order: { createdAt: 'DESC', runId: 'DESC' },
      skip: pageOffset(page),
      take: page.limit,
    });
    return { items: await this.withDiscrepancies(manager, rows), page: page.page, limit: page.limit, total };
  }

  private async withDiscrepancies(manager: EntityManager, rows: ReconciliationRunOrmEntity[]): Promise<ReconciliationRun[]> {
    const found =
      rows.length === 0
        ? []
        : await manager.find(ReconciliationDiscrepancyOrmEntity, {
            where: { runId: In(rows.map((r) => r.runId)) },
            order: { position: 'ASC' },
          });
    return rows.map((row) => ({
      runId: row.runId,
      businessId: row.businessId,
      merchantId: row.merchantId,
      provider: row.provider,
      from: row.fromDate,
      to: row.toDate,
      status: row.status as RunStatus,
      totals: (row.totals as ReportTotals | null) ?? null,
      supersededBy: row.supersededBy,
      matched: row.matched,
      ignored: row.ignored,
      failureReason: row.failureReason,
      createdAt: row.createdAt,
      finishedAt: row.finishedAt,
      discrepancies: found
        .filter((d) => d.runId === row.runId)
        .map((d): Discrepancy => ({
          kind: d.kind as DiscrepancyKind,
          externalId: d.externalId,
          ours: restored(d.ours),
          theirs: restored(d.theirs),
        })),
    }));
  }
}
