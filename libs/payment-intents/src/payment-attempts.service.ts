import { Injectable, Logger } from '@nestjs/common';
import { inTransaction } from '@pcs/database';
import { InjectDataSource } from '@nestjs/typeorm';
import { CatalogService, CountryProcessor } from '@pcs/catalog';
import { RuntimeSettings } from '@pcs/config';
import { GatewayEvent, GatewayRegistry, GatewayRequestStatus } from '@pcs/gateways';
import { Caller, DomainError, TransactionStatus } from '@pcs/kernel';
import { MerchantCountryProcessorService, MerchantService } from '@pcs/merchants';
import { Payin, PayinLedgerService } from '@pcs/payins';
import type { ChargeOutcome } from '@pcs/gateways';
import * as crypto from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { PaymentIntent } from './domain/payment-intent';
import { PaymentIntentRepository } from './payment-intent.repository';
import { PaymentAttemptParties } from './payment-attempt-parties';

export interface InitializedAttempt {
  readonly intent: PaymentIntent;
  readonly gatewayReferenceId: string;
  readonly gatewayUrl: string;
}

/**
 * Collection attempts: at a gateway's page (operation 21), off-session with an
 * instrument, and what gateways report back. Gateway calls happen outside
 * database transactions; the database work around them is short and locks the
 * intent first, then its payins, everywhere, so flows never deadlock.
 */
@Injectable()
export class PaymentAttemptsService {
  private readonly logger = new Logger('PaymentAttempts');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinLedgerService,
    private readonly gateways: GatewayRegistry,
    private readonly catalog: CatalogService,
    private readonly processors: MerchantCountryProcessorService,
    private readonly merchants: MerchantService,
    private readonly parties: PaymentAttemptParties,
    private readonly settings: RuntimeSettings,
  ) {}

  /** Operation 20's list: the merchant's ACTIVE, active processors for the intent's country and currency. */
  async availableProcessors(intent: PaymentIntent, manager: EntityManager = this.dataSource.manager): Promise<CountryProcessor[]> {
    const p = intent.snapshot();
    return (await this.processors.offeredCountryProcessors(p.merchantId, manager)).filter(
      (cp) =>
        cp.country.countryId === p.countryId &&
        cp.currencies.includes(p.currency) &&
        (!p.preferredPaymentMethod || cp.paymentMethod.name === p.preferredPaymentMethod) &&
        (!p.preferredInstrumentType || cp.paymentInstrumentType.name === p.preferredInstrumentType),
    );
  }

  /**
   * Operation 21. Opens a checkout at the processor's gateway and records a
   * PENDING payin; the intent waits for the payer (REQUIRES_ACTION). A new
   * initialization replaces an earlier attempt: its payin is CANCELLED and its
   * checkout closed. `operationId` (derived from the request's
   * Idempotency-Key, when it has one) names the attempt: an attempt already
   * recorded under it is answered again instead of opening another.
   */
  async initialize(caller: Caller, paymentIntentId: string, countryProcessorId: string, operationId?: string): Promise<InitializedAttempt> {
    const current = await this.intents.loadVisible(this.dataSource.manager, caller, paymentIntentId);
    const earlier = operationId && (await this.ledger.get(this.dataSource.manager, operationId));
    if (earlier) return this.recordedAttempt(current, earlier);
    const payinId = operationId ?? crypto.randomUUID();
    // Refuse early what the state machine refuses, before a checkout is opened.
    PaymentIntent.restore(current.snapshot()).awaitPayerAtGateway(new Date());
    const processor = (await this.availableProcessors(current)).find((p) => p.countryProcessorId === countryProcessorId);
    if (!processor) throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE');
    const gateway = this.gateways.get(processor.gateway);
    const merchantName = (await this.merchants.load(caller, current.snapshot().merchantId)).snapshot().merchantName;
    const expiresAt = new Date(Date.now() + this.settings.gateway.sessionMinutes * 60_000);
    const checkout = await gateway.openCheckout({
      payinId,
      merchantName,
      paymentMethod: processor.paymentMethod.name,
      currency: current.snapshot().currency,
      amount: current.total.minor,
      expiresAt,
    });

    let replaced: Payin[] = [];
    try {
      const intent = await inTransaction(this.dataSource, async (manager) => {
        const intent = await this.intents.loadVisible(manager, caller, paymentIntentId, true);
        const now = new Date();
        intent.awaitPayerAtGateway(now);
        replaced = await this.ledger.openAttempts(manager, intent.id);
        for (const old of replaced) {
          old.cancel('replaced by a new payment attempt', now);
          await this.ledger.save(manager, old);
        }
        const payin = await this.parties.newAttempt(manager, intent, processor, 'PAYER', payinId, now);
        payin.bindGatewayReference(checkout.reference, expiresAt, now);
        await this.ledger.insert(manager, payin);
        await this.intents.save(manager, intent);
        return intent;
      });
      for (const old of replaced) await this.closeQuietly(old, 'CANCELLED');
      return { intent, gatewayReferenceId: checkout.reference, gatewayUrl: checkout.url };
    } catch (error) {
      await gateway.closeCheckout(checkout.reference, 'CANCELLED').catch(() => undefined);
      throw error;
    }
  }

  private recordedAttempt(intent: PaymentIntent, payin: Payin): InitializedAttempt {
    const p = payin.snapshot();
    if (p.paymentIntentId !== intent.id || p.transactionType !== 'PAYIN' || !p.gateway || !p.externalId)
      throw new DomainError('PAYMENT_INTENT_INVALID_STATE', undefined, { status: intent.status });
    return { intent, gatewayReferenceId: p.externalId, gatewayUrl: this.gateways.get(p.gateway).checkoutUrl(p.externalId) };
  }

  /**
   * Charges the intent's instrument without the payer. The intent and a
   * PENDING payin were committed by the caller; the outcome is applied as a
   * gateway event would be, so both paths share one set of rules. The payin's
   * id is the gateway's idempotency key, so charging again (a retried request)
   * returns the first outcome. If the gateway cannot be reached the payin
   * stays PENDING and reconciliation settles it.
   */
  async chargeOffSession(payinId: string): Promise<void> {
    const payin = await this.ledger.get(this.dataSource.manager, payinId);
    if (!payin || payin.isFinal) return;
    const p = payin.snapshot();
    const processor = p.countryProcessorId ? (await this.catalog.findCountryProcessors([p.countryProcessorId]))[0] : undefined;
    if (!processor) return;
    const gateway = this.gateways.get(processor.gateway);
    const intentNow = await this.intents.findById(this.dataSource.manager, p.paymentIntentId);
    const token = intentNow ? await this.parties.instrumentToken(intentNow) : null;
    let outcome: ChargeOutcome;
    try {
      outcome = await gateway.chargeOffSession({
        payinId,
        instrumentToken: token,
        merchantName: p.merchantName,
        paymentMethod: processor.paymentMethod.name,
        currency: p.currency,
        amount: p.amount,
      });
    } catch (error) {
      this.logger.warn(
        `off-session charge ${payinId} got no answer from ${gateway.name} (${(error as Error).message}); reconciliation will settle it`,
      );
      return;
    }
    await this.settleWithGatewayAnswer(payinId, gateway.name, outcome);
  }

  /** Applies what a gateway answered about an attempt (a charge's answer, or a lookup's). */
  private async settleWithGatewayAnswer(payinId: string, gatewayName: string, outcome: ChargeOutcome): Promise<void> {
    await inTransaction(this.dataSource, async (manager) => {
      const found = await this.ledger.get(manager, payinId);
      const intent = found && (await this.intents.lockById(manager, found.snapshot().paymentIntentId));
      const locked = await this.ledger.get(manager, payinId, true);
      if (!intent || !locked || locked.isFinal) return;
      if (!locked.snapshot().externalId) {
        locked.bindGatewayReference(outcome.reference, null, new Date());
        await this.ledger.save(manager, locked);
      }
      if (outcome.instrumentToken) await this.parties.recordInstrumentToken(manager, intent, outcome);
      const { status, error, maskedPan, cardType } = outcome;
      await this.apply(manager, intent, locked, {
        gateway: gatewayName,
        eventId: `charge:${outcome.reference}`,
        reference: outcome.reference,
        outcome: status,
        error,
        maskedPan,
        cardType,
      });
    });
  }

  /**
   * Crash recovery for a collection attempt that has waited past its window:
   * the gateway is asked by our id for it, and its answer applied as any
   * other. A charge the gateway never received (the process died before
   * sending it) is void at the gateway from then on, and fails here: the
   * intent goes back to REQUIRES_PAYMENT_INSTRUMENT, nothing was collected.
   */
  async reconcileAttempt(payinId: string, now = new Date()): Promise<void> {
    const payin = await this.ledger.get(this.dataSource.manager, payinId);
    if (!payin || payin.isFinal || !payin.snapshot().gateway) return;
    const gatewayName = payin.snapshot().gateway!;
    const answer: GatewayRequestStatus = await this.gateways.get(gatewayName).lookup(payinId);
    if (
      answer.status === 'APPROVED' ||
      answer.status === 'REJECTED' ||
      (answer.status === 'PENDING' && answer.reference && payin.status === TransactionStatus.PENDING)
    ) {
      const { status, reference, error, maskedPan, cardType, instrumentToken } = answer;
      await this.settleWithGatewayAnswer(payinId, gatewayName, {
        status,
        reference: reference!,
        error,
        maskedPan,
        cardType,
        instrumentToken,
      });
    }
    await inTransaction(this.dataSource, async (manager) => {
      const intent = await this.intents.lockById(manager, payin.snapshot().paymentIntentId, true);
      const locked = intent && (await this.ledger.get(manager, payinId, true));
      if (!intent || !locked || locked.isFinal) return;
      if (answer.status === 'NOT_RECEIVED' || answer.status === 'EXPIRED') {
        const reason =
          answer.status === 'NOT_RECEIVED' ? 'the charge never reached the gateway' : 'the payer did not complete the payment in time';
        if (answer.status === 'EXPIRED') locked.expire(now);
        else locked.reject(reason, now);
        if (intent.status === 'REQUIRES_ACTION' || intent.status === 'PROCESSING') intent.fail(reason, now);
        await this.intents.save(manager, intent);
      } else {
        locked.askGatewayAgainLater(now, this.settings.gateway.reconcileAfterSeconds * 1000);
      }
      await this.ledger.save(manager, locked);
    });
  }

  /**
   * A verified gateway callback. Applied once: the event id is recorded in the
   * same transaction, so a replay finds it and changes nothing; a late or
   * out-of-order event meets a final payin, which absorbs it.
   */
  async applyGatewayEvent(event: GatewayEvent): Promise<'applied' | 'replayed' | 'unknown'> {
    const found = await this.ledger.findByExternalId(this.dataSource.manager, event.gateway, event.reference);
    if (!found) return 'unknown';
    return inTransaction(this.dataSource, async (manager) => {
      const inserted = await manager.query(
        `INSERT INTO gateway_event (gateway, event_id, reference) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING event_id`,
        [event.gateway, event.eventId, event.reference],
      );
      if (inserted.length === 0) return 'replayed';
      const intent = await this.intents.lockById(manager, found.snapshot().paymentIntentId);
      const payin = await this.ledger.get(manager, found.id, true);
      if (!intent || !payin) return 'unknown';
      await this.apply(manager, intent, payin, event);
      return 'applied';
    });
  }

  /**
   * Attempts whose payer left the gateway's page past the window: the payin
   * EXPIRES and the intent returns to REQUIRES_PAYMENT_INSTRUMENT. Safe with
   * several replicas: each intent is taken with SKIP LOCKED.
   */
  async expireSessions(now = new Date(), batch = 50): Promise<number> {
    const candidates = await this.ledger.expiredSessions(now, batch);
    let expired = 0;
    for (const candidate of candidates) {
      const closed = await inTransaction(this.dataSource, async (manager) => {
        const intent = await this.intents.lockById(manager, candidate.snapshot().paymentIntentId, true);
        if (!intent) return null; // another replica holds it
        const payin = await this.ledger.get(manager, candidate.id, true);
        const sessionEnd = payin?.snapshot().sessionExpiresAt;
        if (!payin || !sessionEnd || sessionEnd >= now || !payin.expire(now)) return null;
        await this.ledger.save(manager, payin);
        if (intent.status === 'REQUIRES_ACTION') {
          intent.expireAttempt(now);
          await this.intents.save(manager, intent);
        }
        return payin;
      });
      if (closed) {
        expired += 1;
        await this.closeQuietly(closed, 'EXPIRED');
      }
    }
    return expired;
  }

  private async apply(
    manager: EntityManager,
    intent: PaymentIntent,
    payin: Payin,
    event: Omit<GatewayEvent, 'gateway'> & { gateway: string },
  ): Promise<void> {
    const now = new Date();
    const p = payin.snapshot();
    if (p.transactionType !== 'PAYIN') return;
    let changed: boolean;
    if (event.outcome === 'PENDING') {
      changed = payin.schedule('pending', now, this.settings.gateway.reconcileAfterSeconds * 1000);
      if (changed && intent.status === 'REQUIRES_ACTION') intent.markProcessing(now);
    } else if (event.outcome === 'APPROVED') {
      const days = await this.settlementDelayDays(p.countryProcessorId);
      changed = payin.approve('approved', days, now, { maskedPan: event.maskedPan, cardType: event.cardType });
      if (changed && (intent.status === 'REQUIRES_ACTION' || intent.status === 'PROCESSING')) {
        intent.succeed(event.reference, now);
        await this.parties.validateInstrument(manager, intent);
      } else if (changed) {
        this.logger.warn(`payin ${payin.id} approved while its intent is ${intent.status}`);
      }
    } else {
      changed = payin.reject(event.error ?? 'rejected', now);
      if (changed && (intent.status === 'REQUIRES_ACTION' || intent.status === 'PROCESSING'))
        intent.fail(event.error ?? 'the payment was rejected', now);
    }
    if (!changed) return;
    await this.ledger.save(manager, payin);
    await this.intents.save(manager, intent);
  }

  private async settlementDelayDays(countryProcessorId: string | null): Promise<number> {
    if (!countryProcessorId) return 0;
    const [processor] = await this.catalog.findCountryProcessors([countryProcessorId]);
    return processor?.paymentMethod.settlementDelayDays ?? 0;
  }

  private async closeQuietly(payin: Payin, reason: 'CANCELLED' | 'EXPIRED'): Promise<void> {
    const p = payin.snapshot();
    if (!p.gateway || !p.externalId) return;
    try {
      await this.gateways.get(p.gateway).closeCheckout(p.externalId, reason);
    } catch (error) {
      this.logger.warn(`could not close checkout ${p.externalId}: ${(error as Error).message}`);
    }
  }
}
