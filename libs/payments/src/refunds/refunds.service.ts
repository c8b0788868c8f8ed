/*
 * Why one file: the refund's steps (the processor's refunds read first, the reservation, the send, the booking)
 * follow one order of the intent's lock (contract §28); split, that order would live in two places.
 */
/**
 * Refunds of a payment intent (operations 19–20, contract §11): total,
 * partial and manual. Over 300 lines because a refund is reserved on the
 * intent, asked of its gateway and settled by the gateway's answer or
 * notice, and a lost answer must never make a second refund: the steps share
 * one decision and are read together.
 */
import { Injectable, Logger } from '@nestjs/common';
import { AlreadyRecordedError } from '../domain/already-recorded';
import {
  GatewayRegistry,
  PaymentGateway,
  ProcessorAmountError,
  ProcessorRefund,
  readsPayments,
  RefundOutcome,
  RefundRequest,
  returnsManualRefunds,
} from '@pcs/gateways';
import type { GatewayNotice } from '@pcs/gateways';
import { RuntimeSettings } from '@pcs/config';
import {
  Caller,
  DomainError,
  ManualRefundStatus,
  Money,
  moneyFromWire,
  PaymentIntentId,
  RefundOrigin,
  scopeCovers,
  tenantScope,
  Transaction,
  UnitOfWork,
} from '@pcs/kernel';
import { Payin, PayinState } from '../domain/payin';
import { RefundRecords } from '../ledger/payin.repository';
import { CatalogService } from '@pcs/catalog';
import * as crypto from 'node:crypto';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentAttemptParties } from '../attempts/payment-attempt-parties';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { PayinRepository } from '../ledger/payin.repository';
import { IntentDisputes } from '../disputes/intent-disputes.service';
import { ProcessorRefunds } from './processor-refunds.service';

/** Tries on the unlocked path before the intent is taken for update (it kept changing under the refund). */
const UNLOCKED_ATTEMPTS = 3;
/** Tries under the intent's lock; only a manual refund's record confirmed meanwhile by another request sends it round again. */
const LOCKED_ATTEMPTS = 10;

/** What a refund operation decided, on one read of the intent and its records, to write. */
interface Decision<T> {
  /** The intent reserved an amount: saved while it is the version read, with `inserts` (the refund's record). */
  readonly reserved?: { readonly inserts: readonly Payin[] };
  /** A record changed alone (a pending manual refund confirmed): saved while it is in the state it was read in. */
  readonly update?: { readonly refund: Payin; readonly as: PayinState };
  readonly result: T;
}

/** Where a refund goes: the gateway of the approved collection, and what it is told of that collection. */
type RefundRoute = Pick<RefundRequest, 'chargeId' | 'chargeReference' | 'paymentMethod' | 'merchantName'> & {
  readonly gateway: PaymentGateway;
};

type Decide<T> = (tx: Transaction, intent: PaymentIntent, records: RefundRecords, now: Date) => Promise<Decision<T>>;

/**
 * Refunds (operations 22 and 23). The refundable amount is received minus
 * every refund that has not failed, manual ones included (contract §9).
 *
 * A refund is decided on one read — the intent, its version, and its
 * records (the approved charge it goes back through, the refunds not final
 * yet, what an earlier run of the same operation recorded) — and written in
 * one statement: the intent's new refunded amount, only while the intent is
 * the version read, with the refund's record and every event. Concurrent
 * refunds cannot both write from the same version, so none can reserve past
 * what was collected (a CHECK constraint backs this up); the one that lost
 * reads again and decides again, and after a few losses takes the intent's
 * row lock. The reservation commits before the gateway is asked, so a crash
 * in between leaves a PENDING refund that reconciliation settles; the
 * gateway's answer is recorded in one more statement (a rejection releases
 * the amount, under the intent's lock).
 */
@Injectable()
export class RefundsService {
  private readonly logger = new Logger('Refunds');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinRepository,
    private readonly parties: PaymentAttemptParties,
    private readonly gateways: GatewayRegistry,
    private readonly catalog: CatalogService,
    private readonly settings: RuntimeSettings,
    private readonly processorRefunds: ProcessorRefunds,
    private readonly disputes: IntentDisputes,
  ) {}

  /**
   * Operation 22: everything refundable when no amount is given; a given
   * amount is a wire decimal in the intent's currency. `operationId` (derived
   * from the request's Idempotency-Key, when it has one) names the refund: a
   * refund already recorded under it is carried on, not made twice.
   */
  async refund(
    caller: Caller,
    paymentIntentId: PaymentIntentId,
    requestedAmount?: number,
    operationId?: string,
    origin: RefundOrigin = 'API',
  ): Promise<PaymentIntent> {
    const refundId = operationId ?? crypto.randomUUID();
    await this.learnProcessorRefunds(caller, paymentIntentId);
    const { intent, result } = await this.decideAndWrite(caller, paymentIntentId, operationId, async (tx, intent, records, now) => {
      const earlier = records.byOperation;
      if (earlier) {
        if (earlier.snapshot().paymentIntentId !== intent.id) throw invalidState(intent);
        return { result: { refund: earlier, route: earlier.isFinal ? null : await this.routeOf(records.charge, refundId) } };
      }
      const amount = intent.reserveRefund(amountOf(intent, requestedAmount), now);
      // Found before anything is written: a refund goes back through the approved collection's gateway.
      const route = await this.routeOf(records.charge, refundId);
      const refund = await this.parties.newRefund(intent, records.charge, refundId, amount, 'REFUND', origin, now);
      return { reserved: { inserts: [refund] }, result: { refund, route } };
    });
    const answer = result.route && (await this.sendToGateway(result.refund, result.route));
    // A rejection released the amount, or the processor refunded another amount: the intent is no longer as written.
    return answer === 'REJECTED' || answer === 'ADJUSTED' ? (await this.intents.findById(this.unitOfWork.outside, intent.id))! : intent;
  }

  /**
   * Operation 23. MANUAL_REFUND_PENDING reserves the amount (a refund made
   * outside the gateways, not yet confirmed); MANUAL_REFUND_CONFIRMED confirms
   * the pending one (of that amount, when one is given), or records and
   * confirms a manual refund at once when none is pending. `operationId`
   * (derived from the request's Idempotency-Key, when it has one) names the
   * record the request creates or confirms, so a retry recognises it and
   * changes nothing.
   */
  async manualRefund(
    caller: Caller,
    paymentIntentId: PaymentIntentId,
    status: ManualRefundStatus,
    requestedAmount?: number,
    operationId?: string,
    origin: RefundOrigin = 'API',
  ): Promise<PaymentIntent> {
    const recordId = operationId ?? crypto.randomUUID();
    // A confirmation is sent to a processor that returns the money itself: what it already refunded is read first.
    if (status === ManualRefundStatus.MANUAL_REFUND_CONFIRMED) await this.learnProcessorRefunds(caller, paymentIntentId);
    const {
      intent,
      records,
      result: created,
    } = await this.decideAndWrite(
      caller,
      paymentIntentId,
      operationId,
      async (tx, intent, records, now): Promise<Decision<Payin | null>> => {
        const recorded = records.byOperation;
        if (recorded) {
          if (recorded.snapshot().paymentIntentId !== intent.id) throw invalidState(intent);
          return { result: null };
        }
        const requested = amountOf(intent, requestedAmount);
        // At a gateway that returns the money on confirmation (Mercado Pago), a confirmation is a refund there.
        const atGateway = status === ManualRefundStatus.MANUAL_REFUND_CONFIRMED && this.refundsConfirmations(records.charge);
        const confirm = (refund: Payin) =>
          atGateway
            ? refund.confirmManualRefundAtGateway(recordId, now, this.settings.gateway.reconcileAfterSeconds * 1000)
            : refund.confirmManualRefund(recordId, now);
        if (status === ManualRefundStatus.MANUAL_REFUND_CONFIRMED) {
          const pending = records.open.filter((p) => p.awaitsConfirmation);
          const match = requested ? pending.find((p) => p.snapshot().amount === requested.minor) : pending[0];
          if (match) {
            const as = match.state;
            confirm(match);
            return { update: { refund: match, as }, result: null };
          }
          if (pending.length > 0) throw new DomainError('NO_PENDING_MANUAL_REFUND');
        }
        const amount = intent.reserveRefund(requested, now);
        const refund = await this.parties.newRefund(intent, records.charge, recordId, amount, 'MANUAL_REFUND', origin, now);
        if (status === ManualRefundStatus.MANUAL_REFUND_CONFIRMED) confirm(refund);
        return { reserved: { inserts: [refund] }, result: refund };
      },
    );
    // Confirmed refunds still waiting for their gateway (this one, or one a cut request left): sent now.
    // Sending again is safe: the refund's id is its idempotency key there.
    const waiting = [...records.open, ...(created ? [created] : [])].filter((p) => p.awaitsGateway);
    let released = false;
    for (const refund of waiting) {
      const answer = await this.sendToGateway(refund, await this.routeOf(records.charge, refund.id));
      released = answer === 'REJECTED' || answer === 'ADJUSTED' || released;
    }
    return released ? (await this.intents.findById(this.unitOfWork.outside, intent.id))! : intent;
  }

  /**
   * Crash recovery for a gateway refund that has waited past its window: the
   * gateway is asked by the refund's id. Approved is recorded; rejected, or
   * never received (the process died before sending it; the gateway voids the
   * id from then on), releases the reserved amount.
   */
  async reconcileRefund(refundId: string, now = new Date()): Promise<void> {
    const refund = await this.ledger.get(this.unitOfWork.outside, refundId);
    // Refunds sent to a gateway: gateway refunds, and manual ones confirmed at a gateway that refunds them.
    const r = refund?.snapshot();
    if (!refund || !r || refund.isFinal || (r.conceptCode === 'MANUAL_REFUND' && r.manualRefundStatus !== 'MANUAL_REFUND_CONFIRMED'))
      return;
    const { gateway } = await this.routeOf(await this.ledger.latestApprovedCharge(this.unitOfWork.outside, r.paymentIntentId), refundId);
    const answer = await gateway.lookup(refundId, r.merchantId);
    if (answer.status === 'APPROVED') return this.settleLocked(refundId, 'APPROVED', answer.reference);
    if (answer.status !== 'PENDING')
      return this.settleLocked(refundId, 'REJECTED', answer.reference, answer.error ?? 'the refund never reached the gateway');
    await this.awaitGateway(refundId, answer.reference, now);
  }

  /**
   * Reads the intent (tenancy checked) with its refund records, lets `decide`
   * change them, and writes what it decided in one statement that finds its
   * row only while the intent (or the record it changes alone) is as read.
   * A write that lost a race is decided again on a fresh read; after a few
   * such losses, under the intent's row lock.
   */
  private async decideAndWrite<T>(
    caller: Caller,
    paymentIntentId: PaymentIntentId,
    operationId: string | undefined,
    decide: Decide<T>,
  ): Promise<{ intent: PaymentIntent; records: RefundRecords; result: T }> {
    for (let attempt = 1; attempt <= UNLOCKED_ATTEMPTS + LOCKED_ATTEMPTS; attempt++) {
      const lock = attempt > UNLOCKED_ATTEMPTS;
      try {
        const done = lock
          ? await this.unitOfWork.run((tx) => this.attempt(tx, caller, paymentIntentId, operationId, decide, true))
          : await this.attempt(this.unitOfWork.outside, caller, paymentIntentId, operationId, decide, false);
        if (done) return done;
      } catch (error) {
        // The same operation recorded its refund meanwhile (a retry racing its first run): read again, and carry it on.
        if (!operationId || !(error instanceof AlreadyRecordedError) || error.record !== 'PAYIN') throw error;
      }
    }
    throw new Error(`a refund of payment intent ${paymentIntentId} lost every race for it`);
  }

  private async attempt<T>(
    tx: Transaction,
    caller: Caller,
    paymentIntentId: PaymentIntentId,
    operationId: string | undefined,
    decide: Decide<T>,
    lock: boolean,
  ): Promise<{ intent: PaymentIntent; records: RefundRecords; result: T } | null> {
    const read = await this.intents.findForRefund(tx, tenantScope(caller), paymentIntentId, operationId ?? null, lock);
    if (!read) throw new DomainError('PAYMENT_INTENT_NOT_FOUND');
    const { intent, version, records } = read;
    const decision = await decide(tx, intent, records, new Date());
    let written = true;
    if (decision.reserved) {
      written = await this.intents.recordRefunds(tx, intent, version, decision.reserved.inserts);
    } else if (decision.update) {
      written = await this.ledger.saveIfStill(tx, decision.update.refund, decision.update.as);
    }
    return written ? { intent, records, result: decision.result } : null;
  }

  /**
   * Asks the gateway for a reserved refund (the refund's id is its
   * idempotency key there) and records the answer. Unreachable: the refund
   * stays PENDING, holding its amount, and reconciliation settles it.
   */
  private async sendToGateway(refund: Payin, route: RefundRoute): Promise<'APPROVED' | 'ADJUSTED' | 'REJECTED' | 'PENDING' | 'UNANSWERED'> {
    const r = refund.snapshot();
    const { gateway, ...through } = route;
    let outcome: RefundOutcome;
    const request: RefundRequest = {
      ...through,
      refundId: r.transactionId,
      merchantId: r.merchantId,
      currency: r.currency,
      amount: r.amount,
    };
    try {
      // A manual refund a merchant confirmed goes back through a gateway that returns such money itself; any other is a refund there.
      outcome =
        r.conceptCode === 'MANUAL_REFUND' && returnsManualRefunds(gateway)
          ? await gateway.returnManualRefund(request)
          : await gateway.refund(request);
    } catch (error) {
      if (error instanceof ProcessorAmountError) {
        // It answered, but not an amount we can read exactly (contract §28): nothing is booked; the refund stays
        // reserved and pending, asked about again by reconciliation, and the request fails saying why.
        this.logger.error(`refund ${r.transactionId}: ${error.message}; it stays pending, nothing booked`);
        throw error;
      }
      this.logger.error(
        `refund ${r.transactionId} got no answer from ${gateway.name} (${(error as Error).message}); reconciliation will settle it`,
      );
      return 'UNANSWERED';
    }
    if (outcome.status === 'PENDING') await this.awaitGateway(refund.id, outcome.reference);
    else await this.settle(refund, outcome.status, outcome.reference, outcome.error, outcome.amount);
    return outcome.status === 'APPROVED' && outcome.amount !== undefined && outcome.amount !== r.amount ? 'ADJUSTED' : outcome.status;
  }

  /**
   * A gateway's notification about one of our refunds, read by its adapter:
   * applied when the refund went to that gateway, as its answer would be.
   * The same news twice, or news of a refund already settled, changes nothing.
   */
  async settleFromGateway(
    refund: Payin,
    gateway: string,
    notice: Extract<GatewayNotice, { kind: 'REFUND' }>,
  ): Promise<'applied' | 'replayed' | 'unknown'> {
    const r = refund.snapshot();
    const charge = await this.ledger.latestApprovedCharge(this.unitOfWork.outside, r.paymentIntentId);
    if (charge?.snapshot().gateway !== gateway) return 'unknown';
    if (refund.isFinal) return 'replayed';
    if (notice.status === 'PENDING') {
      await this.awaitGateway(refund.id, notice.reference);
      return 'applied';
    }
    await this.settleLocked(refund.id, notice.status, notice.reference, notice.error);
    return 'applied';
  }

  /**
   * The refunds a processor lists on our collection `payinId` (read on news of the payment, by
   * reconciliation or by the daily lookups): those of ours still waiting on its word that it lists
   * as done or refused are settled as their own notification would have settled them (contract
   * §28: a notification lost is found there). How many were settled.
   */
  async settleListed(merchantId: string, gateway: string, payinId: string, listed: readonly ProcessorRefund[]): Promise<number> {
    const charge = (await this.ledger.get(this.unitOfWork.outside, payinId))?.snapshot();
    if (!charge || charge.merchantId !== merchantId || charge.gateway !== gateway || charge.transactionType !== 'PAYIN') return 0;
    let settled = 0;
    for (const refund of await this.ledger.refundsOf(this.unitOfWork.outside, charge.paymentIntentId)) {
      const r = refund.snapshot();
      const there = r.externalId === null || refund.isFinal ? undefined : listed.find((l) => l.reference === r.externalId);
      if (!there || there.status === 'PENDING' || refund.awaitsConfirmation) continue;
      await this.settleLocked(
        refund.id,
        there.status,
        there.reference,
        there.status === 'REJECTED' ? `${gateway} lists the refund as refused` : undefined,
        there.status === 'APPROVED' ? there.amount : undefined,
      );
      settled += 1;
    }
    return settled;
  }

  /** A refund the gateway took and settles later: its reference kept, and the gateway asked again after the window. */
  private async awaitGateway(refundId: string, reference: string | null, now = new Date()): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const record = await this.ledger.get(tx, refundId, true);
      if (!record || record.isFinal) return;
      if (reference && !record.snapshot().externalId) record.bindGatewayReference(reference, null, now);
      record.askGatewayAgainLater(now, this.settings.gateway.reconcileAfterSeconds * 1000);
      await this.ledger.save(tx, record);
    });
  }

  /**
   * Records a gateway's final word on a refund this request wrote or read:
   * APPROVED of the amount asked in one statement, while the record is still
   * as it was and its payment has no dispute (whose debit would follow the
   * refund, contract §28); otherwise (a rejection, which releases the amount,
   * another amount, a record that changed, a dispute) under the locks of
   * settleLocked.
   */
  private async settle(
    refund: Payin,
    status: 'APPROVED' | 'REJECTED',
    reference: string | null,
    error?: string,
    refundedAmount?: number,
  ): Promise<void> {
    if (status === 'APPROVED' && (refundedAmount === undefined || refundedAmount === refund.snapshot().amount)) {
      const as = refund.state;
      const now = new Date();
      if (reference && !refund.snapshot().externalId) refund.bindGatewayReference(reference, null, now);
      if (refund.approve('refunded', now) && (await this.ledger.saveIfStill(this.unitOfWork.outside, refund, as, { undisputed: true })))
        return;
    }
    await this.settleLocked(refund.id, status, reference, error, refundedAmount);
  }

  /**
   * Records a gateway's final word on a refund by its id: APPROVED (of the amount the processor
   * says it refunded, when it says one), or REJECTED releasing its reservation; then the debit of
   * each open dispute of the payment follows what the processor has refunded (contract §28).
   */
  private async settleLocked(
    refundId: string,
    status: 'APPROVED' | 'REJECTED',
    reference: string | null,
    error?: string,
    refundedAmount?: number,
  ): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const found = await this.ledger.get(tx, refundId);
      const intent = found && (await this.intents.lockById(tx, found.snapshot().paymentIntentId));
      const record = intent && (await this.ledger.get(tx, refundId, true));
      if (!intent || !record || record.isFinal) return;
      const now = new Date();
      if (reference && !record.snapshot().externalId) record.bindGatewayReference(reference, null, now);
      if (status === 'APPROVED') {
        if (refundedAmount !== undefined && refundedAmount !== record.snapshot().amount) {
          this.logger.warn(
            `refund ${refundId}: the processor refunded ${refundedAmount} minor units, ${record.snapshot().amount} were asked`,
          );
          intent.followProcessorRefundAmount(record.takeProcessorAmount(refundedAmount), now);
          await this.intents.save(tx, intent);
        }
        record.approve('refunded', now);
      } else if (record.reject(error ?? 'refund rejected', now)) {
        intent.releaseRefund(Money.ofMinor(record.snapshot().amount, record.snapshot().currency), now);
        await this.intents.save(tx, intent);
      }
      await this.ledger.save(tx, record);
      const charge = await this.ledger.latestApprovedCharge(tx, intent.id);
      if (charge) await this.disputes.followRefunds(tx, intent, charge);
    });
  }

  /**
   * Contract §28: before a refund is sent to a processor, the refunds it lists on the payment are
   * read, and those we did not know (made in its panel, a notification lost) are recorded first,
   * once, by their processor id, and ours it lists as done or refused are settled, so the refundable
   * amount is what the processor still holds. A processor that cannot be read now refuses the refund
   * before anything is reserved.
   */
  private async learnProcessorRefunds(caller: Caller, paymentIntentId: PaymentIntentId): Promise<void> {
    const charge = (await this.ledger.latestApprovedCharge(this.unitOfWork.outside, paymentIntentId))?.snapshot();
    if (!charge?.gateway || !scopeCovers(tenantScope(caller), charge)) return;
    let notice: GatewayNotice;
    try {
      const gateway = this.gateways.get(charge.gateway);
      if (!readsPayments(gateway)) return;
      notice = await gateway.readPayment(charge.merchantId, charge.transactionId);
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.logger.warn(`refund of ${paymentIntentId}: ${charge.gateway} could not be read first (${(error as Error).message})`);
      throw new DomainError('GATEWAY_UNREACHABLE');
    }
    if (notice.kind !== 'CHARGE' || !notice.refunds?.length) return;
    // Ours it lists as done or refused first (their notification lost), then those it made itself.
    await this.settleListed(charge.merchantId, charge.gateway, charge.transactionId, notice.refunds);
    await this.processorRefunds.apply(charge.merchantId, charge.gateway, charge.transactionId, notice.refunds);
  }

  /** Whether the intent was collected at a gateway that returns the money itself when a manual refund is confirmed. */
  private refundsConfirmations(charge: Payin | null): boolean {
    const gateway = charge?.snapshot().gateway;
    return gateway ? returnsManualRefunds(this.gateways.get(gateway)) : false;
  }

  /** The gateway and charge a refund goes back through: those of the approved collection. */
  private async routeOf(charge: Payin | null, refundId: string): Promise<RefundRoute> {
    const c = charge?.snapshot();
    const [processor] = c?.countryProcessorId ? await this.catalog.findCountryProcessors([c.countryProcessorId]) : [];
    if (!c?.gateway || !processor) throw new Error(`refund ${refundId}: the intent has no approved collection to refund`);
    return {
      gateway: this.gateways.get(c.gateway),
      chargeId: c.transactionId,
      chargeReference: c.externalId,
      paymentMethod: processor.paymentMethod.name,
      merchantName: c.merchantName,
    };
  }
}

/** A requested amount (a wire decimal) in the intent's currency; none: everything refundable. */
function amountOf(intent: PaymentIntent, requested: number | undefined): Money | null {
  return requested === undefined ? null : moneyFromWire('requestedRefundAmount', requested, intent.snapshot().currency);
}

function invalidState(intent: PaymentIntent): DomainError {
  return new DomainError('PAYMENT_INTENT_INVALID_STATE', undefined, { status: intent.status });
}
