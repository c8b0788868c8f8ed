import { Injectable } from '@nestjs/common';
import { CountryProcessor } from '@pcs/catalog';
import { Caller, PaymentIntentId, tenantScope, TransactionStatus, UnitOfWork } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { PaymentIntent } from './domain/payment-intent';
import { AvailableProcessorsService } from './available-processors.service';
import { PaymentIntentRepository } from './payment-intent.repository';
import { PayinRepository } from './ledger/payin.repository';
import { PROCESSOR_UNAVAILABLE } from './attempts/payment-attempts.service';

export interface PaymentIntentMethods {
  readonly processors: CountryProcessor[];
  readonly paymentData: {
    readonly reference: string | null;
    readonly description: string | null;
    readonly countryId: string;
    readonly intent: PaymentIntent;
    readonly merchantFantasyName: string | null;
  };
}

/** One collection attempt of an intent, as GET /payment-intent/:id lists it (contract §26). */
export interface IntentAttempt {
  readonly transactionId: string;
  readonly processor: string | null;
  readonly status: string;
  readonly failureReason: string | null;
  readonly createdAt: string;
}

@Injectable()
export class PaymentIntentQueriesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly intents: PaymentIntentRepository,
    private readonly available: AvailableProcessorsService,
    private readonly merchants: MerchantService,
    private readonly ledger: PayinRepository,
  ) {}

  /** Operation 19. */
  async get(caller: Caller, paymentIntentId: PaymentIntentId): Promise<PaymentIntent> {
    return this.intents.getVisible(this.unitOfWork.outside, tenantScope(caller), paymentIntentId);
  }

  /**
   * The intent's collection attempts, oldest first (contract §26): each try's processor, status and
   * why it failed. An attempt whose processor could not be reached is FAILED with PROCESSOR_UNAVAILABLE.
   */
  async attempts(caller: Caller, paymentIntentId: PaymentIntentId): Promise<{ intent: PaymentIntent; attempts: IntentAttempt[] }> {
    const intent = await this.get(caller, paymentIntentId);
    const attempts = (await this.ledger.attemptsOf(this.unitOfWork.outside, intent.id)).map((payin) => {
      const p = payin.snapshot();
      const unavailable = p.status === TransactionStatus.REJECTED && (p.externalStatus ?? '').startsWith(PROCESSOR_UNAVAILABLE);
      return {
        transactionId: p.transactionId,
        processor: p.gateway,
        status: unavailable ? 'FAILED' : p.status,
        failureReason: unavailable
          ? PROCESSOR_UNAVAILABLE
          : p.status === TransactionStatus.REJECTED
            ? p.externalStatus
            : p.status === TransactionStatus.CANCELLED || p.status === TransactionStatus.EXPIRED
              ? p.cancellationReason
              : null,
        createdAt: p.createdAt.toISOString(),
      };
    });
    return { intent, attempts };
  }

  /** Operation 20: where the payer can pay this intent, and what it is for. */
  async methods(caller: Caller, paymentIntentId: PaymentIntentId): Promise<PaymentIntentMethods> {
    const intent = await this.get(caller, paymentIntentId);
    const p = intent.snapshot();
    const merchant = await this.merchants.findById(p.merchantId);
    return {
      processors: await this.available.of(intent),
      paymentData: {
        reference: p.externalReference,
        description: p.description,
        countryId: p.countryId,
        intent,
        merchantFantasyName: merchant?.fantasyName ?? merchant?.merchantName ?? null,
      },
    };
  }
}
