import { Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { InjectDataSource } from '@nestjs/typeorm';
import { RuntimeSettings } from '@pcs/config';
import { DataSource } from 'typeorm';
import { offSessionDecline, sandboxCallbackKey, sandboxCardDetails, signCallback } from './sandbox-rules';
import { SandboxSessionOrmEntity } from './sandbox-session.orm-entity';
import { sandboxPaidPlan } from './sandbox-installments';

/** The route where a gateway's callbacks reach the service. */
export const gatewayCallbackPath = (gateway: string) => `/gateway/callbacks/${gateway.toLowerCase()}`;

/** Where the sandbox delivers its callbacks: the service's own callback endpoint. */
export abstract class SandboxCallbackTarget {
  abstract url(): string | null;
}

/**
 * The sandbox runs inside the payins API, so it calls back the server it runs
 * in, on the loopback address of the port that server listens on. Outside an
 * HTTP app (operator commands) there is nothing to call.
 */
@Injectable()
export class SelfCallbackTarget extends SandboxCallbackTarget {
  constructor(private readonly adapterHost: HttpAdapterHost) {
    super();
  }

  url(): string | null {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    const address = server?.address();
    if (!address || typeof address === 'string') return null;
    return `http://127.0.0.1:${address.port}${gatewayCallbackPath('SANDBOX')}`;
  }
}

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/**
 * Delivers the sandbox's decisions as signed HTTP callbacks, exactly as a
 * remote gateway would. A session whose callback could not be delivered stays
 * marked and is delivered again by the sweep.
 */
@Injectable()
export class SandboxCallbacks {
  private readonly logger = new Logger('SandboxGateway');
  private readonly key: Buffer;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly target: SandboxCallbackTarget,
    settings: RuntimeSettings,
  ) {
    this.key = sandboxCallbackKey(settings.secretsMasterKey);
  }

  get signingKey(): Buffer {
    return this.key;
  }

  async deliver(reference: string): Promise<boolean> {
    const session = await this.dataSource.manager.findOne(SandboxSessionOrmEntity, { where: { reference } });
    const url = this.target.url();
    if (!session || !session.callbackPending || !url) return false;
    const outcome =
      session.status === 'PENDING'
        ? 'PENDING'
        : session.status === 'APPROVED'
          ? 'APPROVED'
          : session.status === 'REJECTED'
            ? 'REJECTED'
            : null;
    if (!outcome) return false;
    const body = JSON.stringify({
      eventId: `${reference}:${session.callbackSequence}`,
      reference,
      outcome,
      ...(outcome === 'REJECTED'
        ? { error: session.kind === 'OFF_SESSION' ? offSessionDecline(session.amount) : 'the payer rejected the payment' }
        : {}),
      ...(outcome === 'APPROVED' ? sandboxCardDetails(session.paymentMethod, reference) : {}),
      ...(outcome === 'APPROVED' ? paidPlanBody(session) : {}),
    });
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signCallback(this.key, body) },
        body,
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) {
        this.logger.warn(`callback for ${reference} answered ${response.status}; it will be delivered again`);
        return false;
      }
    } catch (error) {
      this.logger.warn(`callback for ${reference} failed (${(error as Error).message}); it will be delivered again`);
      return false;
    }
    await this.dataSource.manager.update(
      SandboxSessionOrmEntity,
      { reference, callbackSequence: session.callbackSequence },
      { callbackPending: false },
    );
    return true;
  }
}

/** The plan of an approved payment in installments, as the sandbox's callback tells it. */
function paidPlanBody(session: SandboxSessionOrmEntity): Record<string, number> {
  const { plan, processorFinancingFeeAmount } = sandboxPaidPlan(session.installmentPolicy, session.amount, session.installments);
  if (!plan) return {};
  return { ...plan, ...(processorFinancingFeeAmount !== undefined ? { financingFeeAmount: processorFinancingFeeAmount } : {}) };
}
