import { Injectable, Logger } from '@nestjs/common';
import { SANDBOX_DECISION_QUEUE } from '@pcs/config';
import { GatewayRegistry, takesDisputeEvidence } from '@pcs/gateways';
import { JobQueue } from '@pcs/jobs';
import { Caller, DisputeStatus, DomainError, MerchantId, Page, PageRequest, Transaction, UnitOfWork, uuidFrom } from '@pcs/kernel';
import { MerchantAccess } from '@pcs/merchants';
import * as crypto from 'node:crypto';
import { DisputeChanges } from './dispute-changes';
import { DisputeFilters, DisputeRepository } from './dispute.repository';
import { Dispute, EvidenceFile } from './domain/dispute';
import { assertWithinEvidenceLimits, checkEvidenceFile } from './domain/evidence-rules';
import { readEvidenceParts } from './evidence/multipart-evidence';

/** A dispute with its evidence files, as one answer shows it. */
export interface DisputeView {
  readonly dispute: Dispute;
  readonly evidence: readonly EvidenceFile[];
}

export interface DisputeQuery extends DisputeFilters {
  readonly merchantId?: MerchantId;
}

/** The job that carries the sandbox's decision a few seconds after a submission. */
export { SANDBOX_DECISION_QUEUE };
/** How long after its submission the sandbox decides a dispute. */
export const SANDBOX_DECISION_SECONDS = 3;
/** How long a submission holds its dispute (a process that dies mid-way frees it then). */
export const SUBMISSION_LEASE_MS = 2 * 60_000;

/**
 * The merchant's side of disputes (contract §21), within the caller's
 * tenancy: reading them, adding evidence before the due date, submitting it
 * to the processor, or accepting the loss.
 */
@Injectable()
export class DisputesService {
  private readonly logger = new Logger('Disputes');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly disputes: DisputeRepository,
    private readonly access: MerchantAccess,
    private readonly gateways: GatewayRegistry,
    private readonly changes: DisputeChanges,
    private readonly jobs: JobQueue,
  ) {}

  async list(caller: Caller, query: DisputeQuery, page: PageRequest): Promise<Page<DisputeView>> {
    const tx = this.unitOfWork.outside;
    const found = await this.disputes.list(tx, await this.access.scopeOf(caller, query.merchantId), query, page);
    const evidence = await this.disputes.evidenceOf(
      tx,
      found.items.map((d) => d.id),
    );
    return { ...found, items: found.items.map((dispute) => ({ dispute, evidence: evidence.get(dispute.id) ?? [] })) };
  }

  async get(caller: Caller, disputeId: string): Promise<DisputeView> {
    return this.view(this.unitOfWork.outside, await this.visible(this.unitOfWork.outside, caller, disputeId));
  }

  /**
   * Evidence files from a multipart body (`file`, one or more): each checked
   * by its content before anything is read from the database, then kept in
   * one transaction with the dispute locked, so concurrent uploads never
   * pass five files or 10 MB between them. Ids derive from the request's
   * Idempotency-Key when it has one: a retry keeps nothing twice.
   */
  async addEvidence(
    caller: Caller,
    disputeId: string,
    contentType: string | undefined,
    body: Buffer,
    operationId?: string,
  ): Promise<DisputeView> {
    const files = (await readEvidenceParts(contentType, body)).map((file) => ({ ...checkEvidenceFile(file), content: file.content }));
    return this.unitOfWork.run(async (tx) => {
      const dispute = await this.visible(tx, caller, disputeId, true);
      const kept = (await this.disputes.evidenceOf(tx, [dispute.id])).get(dispute.id) ?? [];
      const now = new Date();
      const ids = files.map((_, i) => (operationId ? uuidFrom(`dispute evidence\n${operationId}\n${i}`) : crypto.randomUUID()));
      if (ids.every((id) => kept.some((file) => file.evidenceId === id))) return this.view(tx, dispute); // a retry: kept already
      dispute.assertTakesEvidence(now);
      assertWithinEvidenceLimits(kept, files);
      await this.disputes.addEvidence(
        tx,
        dispute.id,
        files.map((file, i) => ({
          evidenceId: ids[i],
          fileName: file.fileName,
          contentType: file.contentType,
          content: file.content,
          uploadedAt: now,
        })),
      );
      dispute.evidenceAdded(now);
      await this.changes.commit(tx, dispute, dispute.status, now);
      return this.view(tx, dispute);
    });
  }

  /**
   * Sends the evidence to the processor: the dispute is held for the
   * submission (a second one at the same time is a 409), the files go to
   * the processor outside any transaction, and only once it took them is
   * the dispute UNDER_REVIEW. A processor that takes evidence only in its
   * own dashboard (dLocal) is a 409 saying so; one that fails frees the
   * dispute and the request can be sent again.
   */
  async submit(caller: Caller, disputeId: string): Promise<DisputeView> {
    const claimed = await this.unitOfWork.run(async (tx) => {
      const dispute = await this.visible(tx, caller, disputeId, true);
      const gateway = this.gateways.get(dispute.snapshot().processor);
      const files = await this.disputes.evidenceContents(tx, dispute.id);
      const now = new Date();
      dispute.beginSubmission(now, new Date(now.getTime() + SUBMISSION_LEASE_MS), files.length);
      if (!takesDisputeEvidence(gateway))
        throw new DomainError('DISPUTE_EVIDENCE_AT_PROCESSOR', undefined, { provider: gateway.displayName });
      await this.disputes.save(tx, dispute);
      return { dispute, gateway, files };
    });
    const d = claimed.dispute.snapshot();
    try {
      await claimed.gateway.submitDisputeEvidence(d.merchantId, d.processorReference, claimed.files);
    } catch (error) {
      await this.unitOfWork.run(async (tx) => {
        const dispute = await this.disputes.find(tx, disputeId, null, true);
        if (!dispute) return;
        dispute.abandonSubmission(new Date());
        await this.disputes.save(tx, dispute);
      });
      if (error instanceof DomainError) throw error;
      this.logger.warn(`dispute ${disputeId}: ${d.processor} did not take the evidence (${(error as Error).message})`);
      throw new DomainError('GATEWAY_UNREACHABLE');
    }
    return this.unitOfWork.run(async (tx) => {
      const dispute = (await this.disputes.find(tx, disputeId, null, true))!;
      const was = dispute.status;
      const now = new Date();
      dispute.submitted(now);
      await this.disputes.markEvidenceSent(
        tx,
        claimed.files.map((f) => f.evidenceId),
        now,
      );
      await this.changes.commit(tx, dispute, was, now);
      if (d.processor === 'SANDBOX' && dispute.status === 'UNDER_REVIEW')
        await this.jobs.send(tx, SANDBOX_DECISION_QUEUE, { disputeId }, { startAfter: SANDBOX_DECISION_SECONDS, retryLimit: 10 });
      return this.view(tx, dispute);
    });
  }

  /** The merchant gives up: ACCEPTED, the amount stays debited (a later decision of the processor still wins). */
  async accept(caller: Caller, disputeId: string): Promise<DisputeView> {
    return this.unitOfWork.run(async (tx) => {
      const dispute = await this.visible(tx, caller, disputeId, true);
      const was: DisputeStatus = dispute.status;
      const now = new Date();
      dispute.accept(now);
      await this.changes.commit(tx, dispute, was, now);
      return this.view(tx, dispute);
    });
  }

  /** The merchant's disputes of these collections, for reconciliation to compare with a processor's holds (contract §23). */
  ofCharges(merchantId: string, chargeIds: readonly string[]): Promise<Dispute[]> {
    return this.disputes.ofCharges(this.unitOfWork.outside, merchantId, chargeIds);
  }

  /** A dispute within the caller's tenancy (contract §4), or 404. */
  private async visible(tx: Transaction, caller: Caller, disputeId: string, lock = false): Promise<Dispute> {
    const dispute = await this.disputes.find(tx, disputeId, await this.access.scopeOf(caller), lock);
    if (!dispute) throw new DomainError('DISPUTE_NOT_FOUND');
    return dispute;
  }

  private async view(tx: Transaction, dispute: Dispute): Promise<DisputeView> {
    return { dispute, evidence: (await this.disputes.evidenceOf(tx, [dispute.id])).get(dispute.id) ?? [] };
  }
}
