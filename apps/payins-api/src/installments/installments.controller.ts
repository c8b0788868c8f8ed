import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentCaller, SignedController } from '@pcs/http';
import { asMerchantId, asPaymentInstrumentId, InvalidRequestError, moneyFromWire } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { installmentPlanRepresentation, InstallmentQuotesService } from '@pcs/payments';
import { InstallmentQuoteQuery } from './installments.dto';
import { InstallmentPlanResponse } from './installments.responses';

@SignedController('installments', 'installments')
export class InstallmentsController {
  constructor(private readonly quotes: InstallmentQuotesService) {}

  @Get()
  @ApiOperation({
    summary: 'Quote installments',
    description:
      'The plans the merchant’s processor offers for a card (its BIN, or a saved card) and an amount, limited by the merchant’s installment policy in the processor’s country (contract §25). The single payment is always among them.',
    operationId: 'quoteInstallments',
  })
  @ApiOkResponse({ type: [InstallmentPlanResponse] })
  @ApiStandardErrors()
  async quote(@CurrentCaller() caller: Caller, @Query() query: InstallmentQuoteQuery): Promise<InstallmentPlanResponse[]> {
    if (query.paymentInstrumentId && query.bin)
      throw new InvalidRequestError(['bin', 'paymentInstrumentId'], 'send bin or paymentInstrumentId, not both');
    if (!query.paymentInstrumentId && (!query.bin || !query.countryProcessorId))
      throw new InvalidRequestError(
        query.bin ? ['countryProcessorId'] : ['bin'],
        'a quote needs countryProcessorId and bin, or paymentInstrumentId',
      );
    const plans = await this.quotes.quote(caller, {
      merchantId: query.merchantId ? asMerchantId(query.merchantId) : undefined,
      countryProcessorId: query.countryProcessorId,
      paymentInstrumentId: query.paymentInstrumentId ? asPaymentInstrumentId(query.paymentInstrumentId) : undefined,
      bin: query.bin,
      amount: moneyFromWire('amount', query.amount, query.currency),
    });
    return plans.map(installmentPlanRepresentation);
  }
}
