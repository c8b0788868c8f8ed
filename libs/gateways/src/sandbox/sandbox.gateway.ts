import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import { DomainError } from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { DataSource, In } from 'typeorm';
import {
  ChargeOutcome,
  ChargeRequest,
  CheckoutRequest,
  CheckoutSession,
  GatewayEvent,
  PaymentGateway,
  RefundOutcome,
  RefundRequest,
} from '../payment-gateway.port';
import { SANDBOX_SIGNATURE_HEADER, SandboxCallbacks } from './sandbox-callbacks';
import { offSessionOutcome, sandboxCardDetails, signCallback } from './sandbox-rules';
import { SandboxSessionOrmEntity } from './sandbox-session.orm-entity';

export const SANDBOX = 'SANDBOX';

/**
 * The sandbox gateway: a real adapter of the gateway port that runs inside
 * the service. Its checkout page lives at /sandbox/gateway/<reference>; its
 * decisions come back as signed callbacks over HTTP.
 */
@Injectable()
export class SandboxGateway extends PaymentGateway {
  readonly name = SANDBOX;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly settings: RuntimeSettings,
    private readonly callbacks: SandboxCallbacks,
  ) {
    super();
  }

  async openCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    const reference = newReference('chk');
    await this.insert({ reference, kind: 'CHECKOUT', status: 'OPEN', ...this.describe(request), expiresAt: request.expiresAt });
    return { reference, url: `${this.settings.publicBaseUrl}/sandbox/gateway/${reference}` };
  }

  async closeCheckout(reference: string, reason: 'CANCELLED' | 'EXPIRED'): Promise<void> {
    await this.dataSource.manager.update(SandboxSessionOrmEntity, { reference, status: In(['OPEN', 'PENDING']) }, { status: reason, updatedAt: new Date() });
  }

  async chargeOffSession(request: ChargeRequest): Promise<ChargeOutcome> {
    const reference = newReference('chg');
    const status = offSessionOutcome(request.amount);
    const settleAt = status === 'PENDING' ? new Date(Date.now() + this.settings.gateway.sandboxSettleSeconds * 1000) : null;
    await this.insert({ reference, kind: 'OFF_SESSION', status, ...this.describe(request), settleAt });
    const token = request.instrumentToken ?? `sbx_tok_${crypto.randomBytes(12).toString('hex')}`;
    if (status === 'REJECTED') return { status, reference, error: 'insufficient funds', instrumentToken: token };
    return { status, reference, instrumentToken: token, ...sandboxCardDetails(request.paymentMethod, reference) };
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const reference = newReference('ref');
    await this.insert({ reference, kind: 'REFUND', status: 'APPROVED', ...this.describe(request) });
    return { status: 'APPROVED', reference };
  }

  verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): GatewayEvent {
    const given = headers[SANDBOX_SIGNATURE_HEADER];
    const expected = signCallback(this.callbacks.signingKey, rawBody);
    if (typeof given !== 'string' || given.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
      throw new DomainError('GATEWAY_CALLBACK_REJECTED');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody.toString('utf8'));
    } catch {
      parsed = null;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new DomainError('GATEWAY_CALLBACK_REJECTED', 'the callback body is not a sandbox event');
    const body = parsed as Record<string, unknown>;
    const outcome = body.outcome;
    if (typeof body.eventId !== 'string' || typeof body.reference !== 'string' || (outcome !== 'PENDING' && outcome !== 'APPROVED' && outcome !== 'REJECTED')) {
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
    };
  }

  private describe(request: { merchantName: string; paymentMethod: string; currency: string; amount: number }) {
    return { merchantName: request.merchantName, paymentMethod: request.paymentMethod, currency: request.currency, amount: request.amount };
  }

  private async insert(session: Partial<SandboxSessionOrmEntity>): Promise<void> {
    const now = new Date();
    await this.dataSource.manager.insert(SandboxSessionOrmEntity, {
      settleAt: null,
      expiresAt: null,
      callbackSequence: 0,
      callbackPending: false,
      createdAt: now,
      updatedAt: now,
      ...session,
    });
  }
}

function newReference(prefix: string): string {
  return `sbx_${prefix}_${crypto.randomBytes(12).toString('hex')}`;
}
