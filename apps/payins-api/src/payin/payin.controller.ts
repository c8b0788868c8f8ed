import { Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, getSchemaPath } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentCaller, dateRange, payinsEnvelope, SignedController } from '@pcs/http';
import { asMerchantId, asPaymentIntentId, InvalidRequestError } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { MerchantAccess } from '@pcs/merchants';
import { PayinLedgerService, payinRepresentation } from '@pcs/payments';
import type { PayinProps } from '@pcs/payments';
import { BalancesService } from '@pcs/settlement';
import { ListPayinsQuery, PayinSummaryQuery } from './payin.dto';
import { PayinPageResponse, PayinResponse, PayinSummaryResponse } from './payin.responses';

export function presentPayin(p: Readonly<PayinProps>, payouts: ReadonlyMap<string, string> = new Map()): PayinResponse {
  return payinRepresentation(p, payouts.get(p.transactionId) ?? null);
}

@SignedController('payin', 'payins')
@ApiExtraModels(PayinPageResponse)
export class PayinController {
  constructor(
    private readonly ledger: PayinLedgerService,
    private readonly access: MerchantAccess,
    private readonly balances: BalancesService,
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
    // The payout that swept each row's balance transaction (payoutRequestId), in one read for the page.
    const payouts = await this.balances.payoutsOfSources(page.items.map((p) => p.transactionId));
    return payinsEnvelope(page, (p) => presentPayin(p, payouts));
  }

  @Get('summary')
  @ApiOperation({
    summary: "The ledger's figures over whole days (beyond the specification)",
    description:
      'For the operations dashboard: per UTC day, per payment method and per currency over the span, the amount collected (approved collections), ' +
      'approved and rejected attempts, refunds, and the approval rate (approved / (approved + rejected)). Default span: the last 30 days; at most 366.',
    operationId: 'summarizePayins',
  })
  @ApiOkResponse({ type: PayinSummaryResponse })
  @ApiStandardErrors()
  async summarize(@CurrentCaller() caller: Caller, @Query() query: PayinSummaryQuery): Promise<PayinSummaryResponse> {
    const day = (value: string, field: string) => {
      const date = new Date(`${value}T00:00:00.000Z`);
      if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
        throw new InvalidRequestError([field], `${field} is not a date`);
      return date;
    };
    const until = query.dateUntil ? day(query.dateUntil, 'dateUntil') : day(new Date().toISOString().slice(0, 10), 'dateUntil');
    const from = query.dateFrom ? day(query.dateFrom, 'dateFrom') : new Date(until.getTime() - 29 * 86_400_000);
    const days = (until.getTime() - from.getTime()) / 86_400_000 + 1;
    if (days < 1) throw new InvalidRequestError(['dateFrom', 'dateUntil'], 'dateFrom is after dateUntil');
    if (days > 366) throw new InvalidRequestError(['dateFrom', 'dateUntil'], 'the span is longer than 366 days');
    if (query.merchantId) await this.access.loadVisible(caller, asMerchantId(query.merchantId));
    const summary = await this.ledger.summary(caller, asMerchantId(query.merchantId), from, new Date(until.getTime() + 86_400_000));
    return {
      dateFrom: from.toISOString().slice(0, 10),
      dateUntil: until.toISOString().slice(0, 10),
      ...summary,
    } as PayinSummaryResponse;
  }
}
