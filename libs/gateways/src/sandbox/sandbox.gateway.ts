/*
 * Why one file: the sandbox processor's adapter, the port implemented over the sandbox's own tables.
 */
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import { queryPrepared } from '@pcs/database';
import { DomainError, sameSecret } from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { DataSource, EntityManager, In } from 'typeorm';
import {
  ChargeOutcome,
  ChargeRequest,
  ChargesOffSession,
  ClosesCheckouts,
  CheckoutRequest,
  CheckoutSession,
  GatewayEvent,
  GatewayRequestStatus,
  GatewayRequestVoidedError,
  InstallmentQuoteRequest,
  PaymentGateway,
  ProcessorInstallmentPlan,
  QuotesInstallments,
  RefundOutcome,
  RefundRequest,
  SignsCallbacks,
  TakesDisputeEvidence,
} from '../payment-gateway.port';
import { DeclineKind, declineKindIn } from '../declines';
import { SANDBOX_SIGNATURE_HEADER, SandboxCallbacks } from './sandbox-callbacks';
import { offSessionDecline, offSessionOutcome, SANDBOX_DECLINES, sandboxCardDetails, signCallback } from './sandbox-rules';
import { SandboxSessionOrmEntity } from './sandbox-session.orm-entity';
import { sandboxInstallmentPlans, SandboxInstallmentOffer, sandboxPaidPlan } from './sandbox-installments';

export const SANDBOX = 'SANDBOX';

/**
 * The sandbox gateway: a real adapter of the gateway port that runs inside
 * the service. Its checkout page lives at /sandbox/gateway/<reference>; its
 * decisions come back as signed callbacks over HTTP. Like a real gateway it
 * keeps every request by the id we sent (sandbox_gateway_request): the same
 * id again gets the first outcome, and an id it was asked about before it
 * arrived is void.
 */
@Injectable()
export class SandboxGateway
  extends PaymentGateway
  implements ChargesOffSession, TakesDisputeEvidence, SignsCallbacks, ClosesCheckouts, QuotesInstallments
{
  readonly name = SANDBOX;
  readonly displayName = 'Sandbox';

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly settings: RuntimeSettings,
    private readonly callbacks: SandboxCallbacks,
  ) {
    super();
  }

  /** The sandbox takes the evidence; its decision comes a few seconds later (the disputes context runs it: sandboxDisputeOutcome). */
  submitDisputeEvidence(): Promise<void> {
    return Promise.resolve();
  }

  /** From the published table (sandbox-installments.ts): the same request always answers the same plans. */
  quoteInstallments(request: InstallmentQuoteRequest): Promise<readonly ProcessorInstallmentPlan[]> {
    return Promise.resolve(sandboxInstallmentPlans(request));
  }

  async openCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    const session = await this.once(request.payinId, () => ({
      reference: newReference('chk'),
      kind: 'CHECKOUT',
      status: 'OPEN',
      ...this.describe(request),
      expiresAt: request.expiresAt,
      returnUrl: request.returnUrl ?? null,
      installmentPolicy: offerOf(request),
      installments: request.installments ?? null,
    }));
    return { reference: session.reference, url: this.urlOf(session.reference) };
  }

  checkoutUrl(reference: string): Promise<string> {
    return Promise.resolve(this.urlOf(reference));
  }

  private urlOf(reference: string): string {
    return `${this.settings.publicBaseUrl}/sandbox/gateway/${reference}`;
  }

  async closeCheckout(reference: string, reason: 'CANCELLED' | 'EXPIRED'): Promise<void> {
    await this.dataSource.manager.update(
      SandboxSessionOrmEntity,
      { reference, status: In(['OPEN', 'PENDING']) },
      { status: reason, updatedAt: new Date() },
    );
  }

  declineKindOf(error: string): DeclineKind | undefined {
    return Object.hasOwn(SANDBOX_DECLINES, error) ? declineKindIn(SANDBOX_DECLINES, error) : undefined;
  }

  /** The sandbox charges every merchant's saved instruments. */
  offSessionAvailable(): Promise<boolean> {
    return Promise.resolve(true);
  }

  async chargeOffSession(request: ChargeRequest): Promise<ChargeOutcome> {
    const session = await this.once(request.payinId, () => {
      const status = offSessionOutcome(request.amount);
      const settleAt = status === 'PENDING' ? new Date(Date.now() + this.settings.gateway.sandboxSettleSeconds * 1000) : null;
      return {
        reference: newReference('chg'),
        kind: 'OFF_SESSION',
        status,
        ...this.describe(request),
        settleAt,
        installmentPolicy: offerOf(request),
        installments: request.installments ?? null,
      };
    });
    const { reference } = session;
    const token = request.instrumentToken ?? tokenFor(reference);
    // A charge is answered as it stands now (a pending one may have settled since).
    const status = session.status === 'APPROVED' || session.status === 'REJECTED' ? session.status : 'PENDING';
    if (status === 'REJECTED') return { status, reference, error: offSessionDecline(session.amount), instrumentToken: token };
    return {
      status,
      reference,
      instrumentToken: token,
      // The card's own digits, the same at every charge of a saved card (as a processor answers them), not the payment's.
      ...sandboxCardDetails(session.paymentMethod, token),
      ...(status === 'APPROVED' ? sandboxPaidPlan(session.installmentPolicy, session.amount, session.installments) : {}),
    };
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const session = await this.once(request.refundId, () => ({
      reference: newReference('ref'),
      kind: 'REFUND',
      status: 'APPROVED',
      ...this.describe(request),
    }));
    return { status: 'APPROVED', reference: session.reference };
  }

  async lookup(requestId: string): Promise<GatewayRequestStatus> {
    return this.dataSource.transaction(async (manager) => {
      // Asking about an id we never received voids it: the request is refused should it still come.
      const voided = await manager.query(
        `INSERT INTO sandbox_gateway_request (request_id, reference) VALUES ($1, NULL) ON CONFLICT DO NOTHING RETURNING request_id`,
        [requestId],
      );
      if (voided.length === 1) return { status: 'NOT_RECEIVED' as const, reference: null };
      const session = await this.sessionOf(manager, requestId);
      if (!session) return { status: 'NOT_RECEIVED' as const, reference: null };
      const { reference } = session;
      if (session.kind === 'OFF_SESSION' && session.status === 'PENDING' && session.settleAt && session.settleAt <= new Date()) {
        // Due to settle: the sandbox's answer is its own settled state (its sweep will also call back, harmlessly).
        await manager
          .createQueryBuilder()
          .update(SandboxSessionOrmEntity)
          .set({ status: 'APPROVED', callbackPending: true, callbackSequence: () => 'callback_sequence + 1', updatedAt: new Date() })
          .where('reference = :reference AND status = :status', { reference, status: 'PENDING' })
          .execute();
        session.status = 'APPROVED';
      }
      switch (session.status) {
        case 'APPROVED':
          return {
            status: 'APPROVED' as const,
            reference,
            ...(session.kind === 'OFF_SESSION' ? { instrumentToken: tokenFor(reference) } : {}),
            ...sandboxCardDetails(session.paymentMethod, session.kind === 'OFF_SESSION' ? tokenFor(reference) : reference),
            ...sandboxPaidPlan(session.installmentPolicy, session.amount, session.installments),
          };
        case 'REJECTED':
          return {
            status: 'REJECTED' as const,
            reference,
            error: session.kind === 'OFF_SESSION' ? offSessionDecline(session.amount) : 'the payer rejected the payment',
          };
        case 'CANCELLED':
        case 'EXPIRED':
          return { status: 'EXPIRED' as const, reference };
        default:
          return {
            status: session.expiresAt !== null && session.expiresAt < new Date() ? ('EXPIRED' as const) : ('PENDING' as const),
            reference,
          };
      }
    });
  }

  verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): GatewayEvent {
    const given = headers[SANDBOX_SIGNATURE_HEADER];
    const expected = signCallback(this.callbacks.signingKey, rawBody);
    if (!sameSecret(given, expected)) {
      throw new DomainError('GATEWAY_CALLBACK_REJECTED');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody.toString('utf8'));
    } catch {
      parsed = null;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new DomainError('GATEWAY_CALLBACK_REJECTED', 'the callback body is not a sandbox event');
    const body = parsed as Record<string, unknown>;
    const outcome = body.outcome;
    if (
      typeof body.eventId !== 'string' ||
      typeof body.reference !== 'string' ||
      (outcome !== 'PENDING' && outcome !== 'APPROVED' && outcome !== 'REJECTED')
    ) {
      throw new DomainError('GATEWAY_CALLBACK_REJECTED', 'the callback body is not a sandbox event');
    }
    return {
      gateway: SANDBOX,
      eventId: body.eventId,
      reference: body.reference,
      outcome,
      ...(typeof body.error === 'string' ? { error: body.error } : {}),
      ...(typeof body.maskedPan === 'string' ? { maskedPan: body.maskedPan } : {}),
      ...(typeof body.cardType === 'string' ? { cardType: body.cardType } : {}),
      ...paidPlanOf(body),
    };
  }

  private describe(request: { merchantName: string; paymentMethod: string; currency: string; amount: number }) {
    return { merchantName: request.merchantName, paymentMethod: request.paymentMethod, currency: request.currency, amount: request.amount };
  }

  /**
   * The session of request `requestId`: the one made for it earlier, or a new
   * one. Claiming the id and recording the session are one statement, so a
   * concurrent lookup sees either nothing (and voids) or the whole session.
   */
  private async once(
    requestId: string,
    create: () => Partial<SandboxSessionOrmEntity> & { reference: string },
  ): Promise<SandboxSessionOrmEntity> {
    const now = new Date();
    const session = Object.assign(new SandboxSessionOrmEntity(), {
      settleAt: null,
      expiresAt: null,
      returnUrl: null,
      installmentPolicy: null,
      installments: null,
      callbackSequence: 0,
      callbackPending: false,
      createdAt: now,
      updatedAt: now,
      ...create(),
    });
    const [{ created }] = await queryPrepared<{ created: number }>(
      this.dataSource.manager,
      `WITH claimed AS (
         INSERT INTO sandbox_gateway_request (request_id, reference) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING request_id
       ), session AS (
         INSERT INTO sandbox_gateway_session (reference, kind, status, merchant_name, payment_method, currency, amount, settle_at,
                                              expires_at, return_url, callback_sequence, callback_pending, created_at, updated_at,
                                              installment_policy, installments)
         SELECT $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17 FROM claimed RETURNING reference
       )
       SELECT count(*)::int AS created FROM session`,
      [
        requestId,
        session.reference,
        session.kind,
        session.status,
        session.merchantName,
        session.paymentMethod,
        session.currency,
        session.amount,
        session.settleAt,
        session.expiresAt,
        session.returnUrl,
        session.callbackSequence,
        session.callbackPending,
        session.createdAt,
        session.updatedAt,
        session.installmentPolicy === null ? null : JSON.stringify(session.installmentPolicy),
        session.installments,
      ],
    );
    if (created === 1) return session;
    const earlier = await this.sessionOf(this.dataSource.manager, requestId);
    if (!earlier) throw new GatewayRequestVoidedError(requestId);
    return earlier;
  }

  private async sessionOf(manager: EntityManager, requestId: string): Promise<SandboxSessionOrmEntity | null> {
    const [row] = await manager.query(`SELECT reference FROM sandbox_gateway_request WHERE request_id = $1`, [requestId]);
    if (!row?.reference) return null;
    return manager.findOne(SandboxSessionOrmEntity, { where: { reference: row.reference } });
  }
}

/**
 * Letters only: a reference travels in callback bodies and URLs, where a run of
 * 13 or more digits that passes Luhn (which random hex makes about once in 400
 * references) would be refused as a card number.
 */
function letters(bytes: Buffer): string {
  return [...bytes].map((b) => String.fromCharCode(97 + (b % 26))).join('');
}

function newReference(prefix: string): string {
  return `sbx_${prefix}_${letters(crypto.randomBytes(24))}`;
}

/** The merchant's installment offer a request carries, with the method it is priced for; null: one payment only. */
function offerOf(request: {
  installmentOffer?: CheckoutRequest['installmentOffer'];
  method?: CheckoutRequest['method'];
}): SandboxInstallmentOffer | null {
  return request.installmentOffer && request.method ? { ...request.installmentOffer, method: request.method } : null;
}

/** The plan a sandbox callback reports (`installments` with its amounts, and the merchant's financing fee), when whole numbers. */
function paidPlanOf(body: Record<string, unknown>): Pick<GatewayEvent, 'plan' | 'processorFinancingFeeAmount'> {
  const whole = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
  const { installments, installmentAmount, payerTotalAmount, financingFeeAmount } = body;
  if (!whole(installments) || installments < 2 || installments > 24 || !whole(installmentAmount) || !whole(payerTotalAmount)) return {};
  return {
    plan: { installments, installmentAmount, payerTotalAmount },
    ...(whole(financingFeeAmount) ? { processorFinancingFeeAmount: financingFeeAmount } : {}),
  };
}

/** The instrument token the sandbox hands back for a charge: stable, so a repeated answer is the same answer. */
function tokenFor(reference: string): string {
  return `sbx_tok_${letters(crypto.createHash('sha256').update(reference).digest().subarray(0, 24))}`;
}
