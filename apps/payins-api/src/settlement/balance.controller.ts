import { Get, Query, Req } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, getSchemaPath } from '@nestjs/swagger';
import {
  ApiStandardErrors,
  csvAnswer,
  CurrentCaller,
  dateRange,
  jsonOrCsvContent,
  payinsEnvelope,
  SignedController,
  UuidParam,
  wantsCsv,
} from '@pcs/http';
import { asMerchantId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { BalancesService } from '@pcs/settlement';
import type { Request } from 'express';
import { BALANCE_TRANSACTION_COLUMNS, balanceTransactionCsvRow, presentBalance, presentBalanceTransaction } from './settlement.presenter';
import { ListBalanceTransactionsQuery } from './settlement.dto';
import { BalanceResponse, BalanceTransactionPageResponse } from './settlement.responses';

/** Balances and balance transactions (contract §19). */
@SignedController('', 'settlement')
@ApiExtraModels(BalanceTransactionPageResponse)
export class BalanceController {
  constructor(private readonly balances: BalancesService) {}

  @Get('merchant/:merchantId/balance')
  @ApiOperation({
    summary: "The merchant's balance",
    description:
      'Per currency: pending (not available yet), available (payouts included; negative after refunds, netted by the next payout) and in ' +
      'transit (payouts not yet paid or failed), exactly the sum of the balance transactions; and what becomes available when.',
    operationId: 'getBalance',
  })
  @ApiOkResponse({ type: BalanceResponse })
  @ApiStandardErrors()
  async balance(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<BalanceResponse> {
    const { merchantId: id, balances } = await this.balances.balance(caller, asMerchantId(merchantId));
    return { merchantId: id, balances: balances.map(presentBalance) };
  }

  @Get('balance-transaction')
  @ApiOperation({
    summary: 'List balance transactions (paged, newest first)',
    description:
      'Every movement of money (PAYIN, REFUND, PAYOUT, PAYOUT_FAILURE, ADJUSTMENT; CHARGEBACK and CHARGEBACK_REVERSAL), in the payins paged ' +
      'envelope; with `Accept: text/csv`, every row matching the filters as CSV.',
    operationId: 'listBalanceTransactions',
  })
  @ApiOkResponse({ content: jsonOrCsvContent({ type: 'array', items: { $ref: getSchemaPath(BalanceTransactionPageResponse) } }) })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListBalanceTransactionsQuery, @Req() request: Request) {
    const { dateFrom, dateUntil } = dateRange(query.dateFrom, query.dateTo, ['dateFrom', 'dateTo']);
    const filters = { ...query, merchantId: asMerchantId(query.merchantId), dateFrom, dateTo: dateUntil };
    if (wantsCsv(request))
      return csvAnswer(
        'balance-transactions.csv',
        BALANCE_TRANSACTION_COLUMNS,
        await this.balances.batches(caller, filters),
        balanceTransactionCsvRow,
      );
    const page = await this.balances.list(caller, filters, query.toPageRequest());
    return payinsEnvelope(page, (t) => presentBalanceTransaction(t));
  }
}
