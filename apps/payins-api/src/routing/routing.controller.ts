import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentCaller, SignedController, UuidParam } from '@pcs/http';
import { asMerchantId, InvalidRequestError, moneyFromWire } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { ProcessorHealthService } from '@pcs/gateways';
import { RoutingSimulationQuery } from './routing.dto';
import { ProcessorsHealthResponse, RoutingSimulationResponse } from './routing.responses';

/** Where a merchant's attempts would go (contract §26). */
@SignedController('merchant', 'merchant', 'merchants:write')
export class RoutingController {
  constructor(private readonly health: ProcessorHealthService) {}

  @Get(':merchantId/routing/simulate')
  @ApiOperation({
    summary: 'Simulate routing',
    description:
      'Which processors an attempt with these facts would try, in order (contract §26): the first routing rule that takes it, less processors the merchant is no longer connected to or that do not collect the method there; without a rule, the method’s one processor.',
    operationId: 'simulateRouting',
  })
  @ApiOkResponse({ type: RoutingSimulationResponse })
  @ApiStandardErrors()
  async simulate(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantId') merchantId: string,
    @Query() query: RoutingSimulationQuery,
  ): Promise<RoutingSimulationResponse> {
    // Another tenant's merchant is a 404 before anything about the question is said.
    await this.health.assertVisible(caller, asMerchantId(merchantId));
    const missing = (['paymentMethod', 'country', 'currency', 'amount'] as const).filter((field) => query[field] === undefined);
    if (missing.length > 0) throw new InvalidRequestError([...missing], `${missing.join(', ')} must be given`);
    const amount = moneyFromWire('amount', query.amount!, query.currency!);
    return this.health.simulate(caller, asMerchantId(merchantId), {
      paymentMethod: query.paymentMethod!.toUpperCase(),
      country: query.country!,
      currency: amount.currency,
      amount: amount.minor,
    });
  }
}

/** Each processor account's circuit and success rates (contract §26). */
@SignedController('health/processors', 'health')
export class ProcessorHealthController {
  constructor(private readonly health: ProcessorHealthService) {}

  @Get()
  @ApiOperation({
    summary: 'Processors’ health',
    description:
      'For each of the caller’s merchants, the sandbox and each processor it is connected to: its circuit breaker’s state in the process that answers (CLOSED, OPEN, HALF_OPEN) and its success rates over the last hour and day (contract §26).',
    operationId: 'getProcessorsHealth',
  })
  @ApiOkResponse({ type: ProcessorsHealthResponse })
  @ApiStandardErrors()
  async processors(@CurrentCaller() caller: Caller): Promise<ProcessorsHealthResponse> {
    return { processors: await this.health.health(caller) };
  }
}
