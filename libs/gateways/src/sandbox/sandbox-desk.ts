import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainError, InvalidRequestError } from '@pcs/kernel';
import { DataSource, In, LessThan } from 'typeorm';
import { SandboxCallbacks } from './sandbox-callbacks';
import { SandboxSessionOrmEntity } from './sandbox-session.orm-entity';
import { sandboxOfferedPlans } from './sandbox-installments';
import type { ProcessorInstallmentPlan } from '../payment-gateway.port';

export type SandboxDecision = 'approve' | 'reject' | 'pending';

export interface SandboxPageView {
  readonly reference: string;
  readonly status: SandboxSessionOrmEntity['status'];
  readonly merchantName: string;
  readonly paymentMethod: string;
  readonly currency: string;
  readonly amount: number;
  readonly open: boolean;
  /** Whether the payer's bank may take it back (contract §21): an approved payment, disputed from the page's button. */
  readonly disputable: boolean;
  /** Where the payer goes back to (the page that sent them), when the service gave one. */
  readonly returnUrl: string | null;
  /** The plans the payer may choose among (contract §25): the single payment alone unless the merchant offers installments. */
  readonly plans: readonly ProcessorInstallmentPlan[];
  /** The installments chosen (preselected before the page, or by the payer). */
  readonly installments: number;
}

/**
 * The payer's side of the sandbox: what the checkout page shows and what its
 * buttons do, plus the sandbox's own housekeeping (settling pending charges,
 * delivering callbacks again).
 */
@Injectable()
export class SandboxDesk {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly callbacks: SandboxCallbacks,
  ) {}

  async page(reference: string): Promise<SandboxPageView> {
    const session = await this.dataSource.manager.findOne(SandboxSessionOrmEntity, { where: { reference, kind: 'CHECKOUT' } });
    if (!session) throw new DomainError('GATEWAY_SESSION_NOT_FOUND');
    const expired = session.expiresAt !== null && session.expiresAt < new Date();
    return {
      reference,
      status: expired && (session.status === 'OPEN' || session.status === 'PENDING') ? 'EXPIRED' : session.status,
      merchantName: session.merchantName,
      paymentMethod: session.paymentMethod,
      currency: session.currency,
      amount: session.amount,
      open: !expired && (session.status === 'OPEN' || session.status === 'PENDING'),
      disputable: session.status === 'APPROVED',
      returnUrl: session.returnUrl,
      plans: sandboxOfferedPlans(session.installmentPolicy, session.amount),
      installments: session.installments ?? 1,
    };
  }

  /**
   * The person's decision at the page. Open sessions take any decision; a
   * pending one can still be approved or rejected; anything else is closed.
   */
  async decide(reference: string, decision: SandboxDecision, installments?: number): Promise<SandboxPageView> {
    if (installments !== undefined) {
      // A plan of the page's offer only (contract §25).
      const offered = (await this.page(reference)).plans.map((p) => p.installments);
      if (!offered.includes(installments))
        throw new InvalidRequestError(['installments'], `installments must be one of ${offered.join(', ')}`);
    }
    const status = decision === 'approve' ? 'APPROVED' : decision === 'reject' ? 'REJECTED' : 'PENDING';
    const from = decision === 'pending' ? ['OPEN'] : ['OPEN', 'PENDING'];
    const result = await this.dataSource
      .createQueryBuilder()
      .update(SandboxSessionOrmEntity)
      .set({
        status,
        callbackPending: true,
        callbackSequence: () => 'callback_sequence + 1',
        updatedAt: new Date(),
        ...(installments !== undefined ? { installments } : {}),
      })
      .where('reference = :reference AND kind = :kind AND status IN (:...from) AND (expires_at IS NULL OR expires_at > now())', {
        reference,
        kind: 'CHECKOUT',
        from,
      })
      .execute();
    if (result.affected) await this.callbacks.deliver(reference);
    return this.page(reference);
  }

  /** Approves off-session charges whose pending time is over, and notifies. */
  async settleDue(now = new Date()): Promise<number> {
    const due = await this.dataSource.manager.find(SandboxSessionOrmEntity, {
      where: { kind: 'OFF_SESSION', status: 'PENDING', settleAt: LessThan(now) },
      take: 100,
    });
    let settled = 0;
    for (const session of due) {
      const result = await this.dataSource
        .createQueryBuilder()
        .update(SandboxSessionOrmEntity)
        .set({ status: 'APPROVED', callbackPending: true, callbackSequence: () => 'callback_sequence + 1', updatedAt: new Date() })
        .where('reference = :reference AND status = :status', { reference: session.reference, status: 'PENDING' })
        .execute();
      if (result.affected) {
        settled += 1;
        await this.callbacks.deliver(session.reference);
      }
    }
    return settled;
  }

  /** Delivers again the callbacks that could not be delivered. */
  async redeliver(): Promise<void> {
    const pending = await this.dataSource.manager.find(SandboxSessionOrmEntity, {
      where: { callbackPending: true, status: In(['PENDING', 'APPROVED', 'REJECTED']) },
      order: { updatedAt: 'ASC' },
      take: 100,
    });
    for (const session of pending) await this.callbacks.deliver(session.reference);
  }
}
