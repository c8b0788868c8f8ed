import { Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, getSchemaPath } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentCaller, dateRange, payinsEnvelope, SignedController } from '@pcs/http';
import { asMerchantId, asPaymentIntentId, InvalidRequestError } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { MerchantAccess } from '@pcs/merchants';
import { PayinLedgerService, payinRepresentation } from '@pcs/payins';
import type { PayinProps } from '@pcs/payins';
import { ListPayinsQuery } from './payin.dto';
import { PayinPageResponse, PayinResponse } from './payin.responses';

export function presentPayin(p: Readonly<PayinProps>): PayinResponse {
  return payinRepresentation(p);
}

@SignedController('payin', 'payins')
@ApiExtraModels(PayinPageResponse)
export class PayinController {
  constructor(
    private readonly ledger: PayinLedgerService,
    private readonly access: MerchantAccess,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Get payins (paged)',
    description:
      'The payins ledger: one row per collection attempt (PAYIN) and per refund (REFUND), newest first, in the payins paged envelope, with filters on merchant, status, type, currency, amounts and dates. rowCount is exact.',
    operationId: 'listPayins',
  })
  @ApiOkResponse({ schema: { type: 'array', items: { $ref: getSchemaPath(PayinPageResponse) } } })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListPayinsQuery) {
    const { dateFrom, dateUntil } = dateRange(query.dateFrom, query.dateUntil);
    if (query.minAmount !== undefined && query.maxAmount !== undefined && query.minAmount > query.maxAmount) {
      throw new InvalidRequestError(['minAmount', 'maxAmount'], 'minAmount is above maxAmount');
    }
    if (query.merchantId) await this.access.loadVisible(caller, asMerchantId(query.merchantId));
    const page = await this.ledger.list(
      caller,
      {
        ...query,
        merchantId: asMerchantId(query.merchantId),
        paymentIntentId: query.paymentIntentId === undefined ? undefined : asPaymentIntentId(query.paymentIntentId),
        dateFrom,
        dateUntil,
      },
      query.toPageRequest(),
    );
    return payinsEnvelope(page, presentPayin);
  }
}
