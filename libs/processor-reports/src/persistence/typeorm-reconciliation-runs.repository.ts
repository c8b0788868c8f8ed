import { Injectable } from '@nestjs/common';
import { Currency, Page, pageOffset, PageRequest, TenantScope } from '@pcs/kernel';
import { EntityManager, In } from 'typeorm';
import type { Discrepancy, DiscrepancyKind, Reconciliation, Side } from '../domain/reconciliation';
import type { ReconciliationRun, RunStatus } from '../domain/reconciliation-run';
import { ReconciliationRunRepository } from '../reconciliation-runs.repository';
import { ReconciliationDiscrepancyOrmEntity, ReconciliationRunOrmEntity, StoredSide } from './reconciliation-run.orm-entity';

const stored = (side: Side | null): StoredSide | null => side && { ...side, date: side.date?.toISOString() ?? null };
const restored = (side: StoredSide | null): Side | null =>
  side && { ...side, currency: (side.currency as Currency | null) ?? null, date: side.date ? new Date(side.date) : null };

@Injectable()
export class TypeOrmReconciliationRunRepository extends ReconciliationRunRepository {
  async start(
    manager: EntityManager,
    run: Pick<ReconciliationRun, 'runId' | 'businessId' | 'merchantId' | 'provider' | 'from' | 'to' | 'createdAt'>,
  ): Promise<void> {
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

  async complete(manager: EntityManager, runId: string, result: Reconciliation, at: Date): Promise<void> {
    await manager.update(
      ReconciliationRunOrmEntity,
      { runId },
      { status: 'COMPLETED', matched: result.matched, ignored: result.ignored, finishedAt: at },
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

  async fail(manager: EntityManager, runId: string, reason: string, at: Date): Promise<void> {
    await manager.update(ReconciliationRunOrmEntity, { runId }, { status: 'FAILED', failureReason: reason.slice(0, 512), finishedAt: at });
  }

  async completedFor(manager: EntityManager, merchantId: string, provider: string, day: string): Promise<boolean> {
    const [done] = await manager.query<unknown[]>(
      `SELECT 1 FROM reconciliation_run WHERE merchant_id = $1 AND provider = $2 AND from_date = $3 AND to_date = $3 AND status = 'COMPLETED'`,
      [merchantId, provider, day],
    );
    return done !== undefined;
  }

  async find(manager: EntityManager, runId: string): Promise<ReconciliationRun | null> {
    const row = await manager.findOneBy(ReconciliationRunOrmEntity, { runId });
    return row ? (await this.withDiscrepancies(manager, [row]))[0] : null;
  }

  async list(manager: EntityManager, scope: TenantScope, page: PageRequest): Promise<Page<ReconciliationRun>> {
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
