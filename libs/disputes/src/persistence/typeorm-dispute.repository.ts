import { Injectable } from '@nestjs/common';
import { managerOf, queryPrepared } from '@pcs/database';
import {
  asBusinessId,
  asMerchantId,
  Currency,
  DisputeProcessor,
  DisputeReason,
  DisputeStatus,
  FundsFlow,
  Page,
  pageOffset,
  PageRequest,
  TenantScope,
  Transaction,
} from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { In } from 'typeorm';
import { DisputeFilters, DisputeRepository, NewEvidence } from '../dispute.repository';
import { Dispute, DisputeKind, EvidenceFile } from '../domain/dispute';
import { DisputeEvidenceOrmEntity, DisputeOrmEntity } from './dispute.orm-entity';

function disputeFromRow(row: DisputeOrmEntity): Dispute {
  return Dispute.restore({
    ...row,
    businessId: asBusinessId(row.businessId),
    merchantId: asMerchantId(row.merchantId),
    currency: row.currency as Currency,
    reason: row.reason as DisputeReason,
    status: row.status as DisputeStatus,
    processor: row.processor as DisputeProcessor,
    fundsFlow: row.fundsFlow as FundsFlow,
    kind: row.kind as DisputeKind,
  });
}

function evidenceFromRow(row: DisputeEvidenceOrmEntity): EvidenceFile {
  return {
    evidenceId: row.evidenceId,
    fileName: row.fileName,
    contentType: row.contentType as EvidenceFile['contentType'],
    size: row.size,
    sha256: row.sha256,
    uploadedAt: row.uploadedAt,
    sentAt: row.sentAt,
  };
}

@Injectable()
export class TypeOrmDisputeRepository extends DisputeRepository {
  async find(tx: Transaction, disputeId: string, scope: TenantScope | null, lock = false): Promise<Dispute | null> {
    const manager = managerOf(tx);
    const query = manager.createQueryBuilder(DisputeOrmEntity, 'd').where('d.dispute_id = :disputeId', { disputeId });
    if (scope) {
      query.andWhere('d.business_id = :businessId', { businessId: scope.businessId });
      if (scope.merchantId) query.andWhere('d.merchant_id = :merchantId', { merchantId: scope.merchantId });
    }
    if (lock) query.setLock('pessimistic_write');
    const row = await query.getOne();
    return row ? disputeFromRow(row) : null;
  }

  async ofCharges(tx: Transaction, merchantId: string, chargeIds: readonly string[]): Promise<Dispute[]> {
    const manager = managerOf(tx);
    if (chargeIds.length === 0) return [];
    const rows = await manager.find(DisputeOrmEntity, { where: { merchantId, chargeId: In([...chargeIds]) }, order: { createdAt: 'ASC' } });
    return rows.map(disputeFromRow);
  }

  async lockCase(tx: Transaction, processor: DisputeProcessor, reference: string): Promise<Dispute | null> {
    const manager = managerOf(tx);
    const row = await manager
      .createQueryBuilder(DisputeOrmEntity, 'd')
      .where('d.processor = :processor AND d.processor_reference = :reference', { processor, reference })
      .setLock('pessimistic_write')
      .getOne();
    return row ? disputeFromRow(row) : null;
  }

  async insert(tx: Transaction, dispute: Dispute): Promise<boolean> {
    const manager = managerOf(tx);
    const result = await manager
      .createQueryBuilder()
      .insert()
      .into(DisputeOrmEntity)
      .values(Object.assign(new DisputeOrmEntity(), dispute.snapshot()))
      .orIgnore()
      .returning('dispute_id')
      .execute();
    return result.raw.length === 1;
  }

  async save(tx: Transaction, dispute: Dispute): Promise<void> {
    const manager = managerOf(tx);
    const { disputeId, ...row } = dispute.snapshot();
    await manager.update(DisputeOrmEntity, { disputeId }, row);
  }

  async list(tx: Transaction, scope: TenantScope, filters: DisputeFilters, page: PageRequest): Promise<Page<Dispute>> {
    const manager = managerOf(tx);
    const query = manager.createQueryBuilder(DisputeOrmEntity, 'd');
    if (scope.merchantId) query.where('d.merchant_id = :merchantId', { merchantId: scope.merchantId });
    else query.where('d.business_id = :businessId', { businessId: scope.businessId });
    if (filters.status) query.andWhere('d.status = :status', { status: filters.status });
    if (filters.dateFrom) query.andWhere('d.created_at >= :dateFrom', { dateFrom: filters.dateFrom });
    if (filters.dateUntil) query.andWhere('d.created_at <= :dateUntil', { dateUntil: filters.dateUntil });
    if (filters.sort === 'DUE_DATE') query.orderBy('d.evidence_due_by', 'ASC', 'NULLS LAST').addOrderBy('d.created_at', 'DESC');
    else query.orderBy('d.created_at', 'DESC');
    const [rows, total] = await query.addOrderBy('d.dispute_id', 'DESC').skip(pageOffset(page)).take(page.limit).getManyAndCount();
    return { items: rows.map(disputeFromRow), page: page.page, limit: page.limit, total };
  }

  async evidenceOf(tx: Transaction, disputeIds: readonly string[]): Promise<Map<string, EvidenceFile[]>> {
    const manager = managerOf(tx);
    const found = new Map<string, EvidenceFile[]>(disputeIds.map((id) => [id, []]));
    if (disputeIds.length === 0) return found;
    const rows = await manager.find(DisputeEvidenceOrmEntity, {
      where: { disputeId: In([...disputeIds]) },
      order: { fileNumber: 'ASC' },
    });
    for (const row of rows) found.get(row.disputeId)!.push(evidenceFromRow(row));
    return found;
  }

  async addEvidence(tx: Transaction, disputeId: string, files: readonly NewEvidence[]): Promise<void> {
    const manager = managerOf(tx);
    if (files.length === 0) return;
    await queryPrepared(
      manager,
      `INSERT INTO dispute_evidence (evidence_id, dispute_id, file_number, file_name, content_type, size, sha256, content, uploaded_at)
       SELECT f.id, $1, n.number, f.name, f.type, octet_length(f.content), f.sha256, f.content, f.at
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::bytea[], $7::timestamptz[]) WITH ORDINALITY
              AS f(id, name, type, sha256, content, at, ordinal),
              LATERAL (SELECT f.ordinal + coalesce((SELECT max(file_number) FROM dispute_evidence WHERE dispute_id = $1), 0) AS number) AS n
       ON CONFLICT (evidence_id) DO NOTHING`,
      [
        disputeId,
        files.map((f) => f.evidenceId),
        files.map((f) => f.fileName),
        files.map((f) => f.contentType),
        files.map((f) => crypto.createHash('sha256').update(f.content).digest('hex')),
        files.map((f) => f.content),
        files.map((f) => f.uploadedAt),
      ],
    );
  }

  async evidenceContents(
    tx: Transaction,
    disputeId: string,
  ): Promise<{ evidenceId: string; fileName: string; contentType: EvidenceFile['contentType']; content: Buffer }[]> {
    const manager = managerOf(tx);
    const rows = await queryPrepared<{ evidence_id: string; file_name: string; content_type: string; content: Buffer }>(
      manager,
      `SELECT evidence_id, file_name, content_type, content FROM dispute_evidence WHERE dispute_id = $1 ORDER BY file_number`,
      [disputeId],
    );
    return rows.map((row) => ({
      evidenceId: row.evidence_id,
      fileName: row.file_name,
      contentType: row.content_type as EvidenceFile['contentType'],
      content: row.content,
    }));
  }

  async markEvidenceSent(tx: Transaction, evidenceIds: readonly string[], at: Date): Promise<void> {
    const manager = managerOf(tx);
    if (evidenceIds.length === 0) return;
    await manager.query(`UPDATE dispute_evidence SET sent_at = $2 WHERE evidence_id = ANY($1::uuid[]) AND sent_at IS NULL`, [
      evidenceIds,
      at,
    ]);
  }
}
