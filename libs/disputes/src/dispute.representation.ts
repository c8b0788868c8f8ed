import { wireAmount } from '@pcs/kernel';
import type { Dispute, EvidenceFile } from './domain/dispute';

/** A dispute as the payins API shows it (contract §21), and the object of its events. */
export function disputeRepresentation(dispute: Dispute, evidence: readonly EvidenceFile[]) {
  const d = dispute.snapshot();
  return {
    disputeId: d.disputeId,
    paymentIntentId: d.paymentIntentId,
    merchantId: d.merchantId,
    amount: wireAmount(d.amount, d.currency),
    currency: d.currency,
    reason: d.reason,
    status: d.status,
    evidenceDueBy: d.evidenceDueBy?.toISOString() ?? null,
    evidence: evidence.map((file) => ({
      fileName: file.fileName,
      contentType: file.contentType,
      size: file.size,
      uploadedAt: file.uploadedAt.toISOString(),
    })),
    processor: d.processor,
    processorReference: d.processorReference,
    createdAt: d.createdAt.toISOString(),
    closedAt: d.closedAt?.toISOString() ?? null,
  };
}

export type DisputeRepresentation = ReturnType<typeof disputeRepresentation>;
