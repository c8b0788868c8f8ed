import { Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { BusinessService } from '@pcs/businesses';
import { RuntimeSettings } from '@pcs/config';
import { ApiStandardErrors, CurrentCaller, SignedController } from '@pcs/http';
import type { Caller } from '@pcs/kernel';
import { presentPaymentMethod } from '../catalog/catalog.presenter';
import { PaymentMethodSummaryResponse } from '../catalog/catalog.responses';

@SignedController('payment-method', 'payment methods')
export class PaymentMethodController {
  constructor(
    private readonly businesses: BusinessService,
    @Inject(RuntimeSettings) private readonly settings: RuntimeSettings,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Get the available payment methods',
    description: "Payment methods of the active country processors enabled for the caller's business.",
    operationId: 'getAvailablePaymentMethods',
  })
  @ApiOkResponse({ type: [PaymentMethodSummaryResponse] })
  @ApiStandardErrors({ notFound: false })
  async list(@CurrentCaller() caller: Caller): Promise<PaymentMethodSummaryResponse[]> {
    return (await this.businesses.availablePaymentMethods(caller.businessId)).map((m) => presentPaymentMethod(m, this.settings));
  }
}
