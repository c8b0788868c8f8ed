import { Injectable } from '@nestjs/common';
import { CountryProcessor } from '@pcs/catalog';
import { Caller, PaymentIntentId, tenantScope, UnitOfWork } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { PaymentIntent } from './domain/payment-intent';
import { AvailableProcessorsService } from './available-processors.service';
import { PaymentIntentRepository } from './payment-intent.repository';

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

@Injectable()
export class PaymentIntentQueriesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly intents: PaymentIntentRepository,
    private readonly available: AvailableProcessorsService,
    private readonly merchants: MerchantService,
  ) {}

  /** Operation 19. */
  async get(caller: Caller, paymentIntentId: PaymentIntentId): Promise<PaymentIntent> {
    return this.intents.getVisible(this.unitOfWork.outside, tenantScope(caller), paymentIntentId);
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
