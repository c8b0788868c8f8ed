import { Body, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiUnprocessableEntityResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  ApiStandardErrors,
  csvAnswer,
  CurrentCaller,
  dateRange,
  ErrorResponse,
  Idempotent,
  jsonOrCsvContent,
  OperationId,
  payinsEnvelope,
  SignedController,
  UuidParam,
  wantsCsv,
  SignatureVersionRequired,
  RequestExample,
} from '@pcs/http';
import { asMerchantId, MAX_PAGE_SIZE } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { BalancesService, Payout, payoutRepresentation, PayoutsService } from '@pcs/settlement';
import type { Request } from 'express';
import { BALANCE_TRANSACTION_COLUMNS, balanceTransactionCsvRow, presentBalanceTransaction } from './settlement.presenter';
import { CreatePayoutDto, ListPayoutsQuery, PageOnlyQuery } from './settlement.dto';
import { BalanceTransactionPageResponse, PayoutPageResponse, PayoutResponse } from './settlement.responses';

/** The CSV columns of a payout list: its JSON fields, the settlement account flattened. */
const PAYOUT_COLUMNS = [
  'payoutId',
  'merchantId',
  'currency',
  'amount',
  'status',
  'bankId',
  'bankName',
  'accountNumber',
  'accountType',
  'arrivalDate',
  'bankReference',
  'failureReason',
  'transactionCount',
  'createdAt',
  'paidAt',
] as const;

/** Payouts to the merchant's bank (contract §19). */
@SignedController('', 'settlement', 'money:write')
@ApiExtraModels(PayoutPageResponse, BalanceTransactionPageResponse)
export class PayoutController {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly balances: BalancesService,
  ) {}

  @Post('merchant/:merchantId/payout')
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Pay out the available balance, or an amount of it',
    description:
      'To the merchant’s settlement account in the currency. The whole available balance sweeps every available transaction no payout took ' +
      'yet (they get its payoutId); an `amount` sweeps the oldest whole transactions within it. 409 Payins:SETTLEMENT_ACCOUNT_MISSING ' +
      'without an account, Payins:SETTLEMENT_ACCOUNT_ON_HOLD while a new account is held (holdUntil), Payins:SETTLEMENT_ACCOUNT_RETURNED ' +
      'while a bank’s return stops payouts to it (returnedPayoutId); 400 for an amount above what is available; ' +
      '409 Payins:NOTHING_TO_PAY_OUT when nothing is. Concurrent requests never pay the same money twice.',
    operationId: 'createPayout',
  })
  @RequestExample(CreatePayoutDto, { currency: 'UYU', amount: 1500.5 })
  @ApiOkResponse({ type: PayoutResponse })
  @ApiConflictResponse({
    type: ErrorResponse,
    description:
      'Payins:SETTLEMENT_ACCOUNT_MISSING, Payins:SETTLEMENT_ACCOUNT_ON_HOLD, Payins:SETTLEMENT_ACCOUNT_RETURNED, Payins:NOTHING_TO_PAY_OUT, ' +
      'or Payins:IDEMPOTENCY_REQUEST_IN_PROGRESS',
  })
  @ApiUnprocessableEntityResponse({ type: ErrorResponse, description: 'Payins:IDEMPOTENCY_KEY_REUSED' })
  @ApiStandardErrors()
  async create(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantId') merchantId: string,
    @Body() body: CreatePayoutDto,
    @OperationId() operationId?: string,
  ): Promise<PayoutResponse> {
    return this.present(await this.payouts.request(caller, asMerchantId(merchantId), body.currency, body.amount, operationId));
  }

  @Get('payout')
  @ApiOperation({
    summary: 'List payouts (paged, newest first)',
    description: 'In the payins paged envelope; with `Accept: text/csv`, every payout matching the filters as CSV.',
    operationId: 'listPayouts',
  })
  @ApiOkResponse({ content: jsonOrCsvContent({ type: 'array', items: { $ref: getSchemaPath(PayoutPageResponse) } }) })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListPayoutsQuery, @Req() request: Request) {
    const { dateFrom, dateUntil } = dateRange(query.dateFrom, query.dateTo, ['dateFrom', 'dateTo']);
    const filters = { ...query, merchantId: asMerchantId(query.merchantId), dateFrom, dateTo: dateUntil };
    if (wantsCsv(request)) {
      const payouts = this.payouts;
      const pages = async function* () {
        for (let page = 1; ; page++) {
          const found = await payouts.list(caller, filters, { page, limit: MAX_PAGE_SIZE });
          if (found.items.length > 0) yield found.items;
          if (page * MAX_PAGE_SIZE >= found.total) return;
        }
      };
      return csvAnswer('payouts.csv', PAYOUT_COLUMNS, this.presentAll(pages()), (p: PayoutResponse) => {
        const { settlementBank, ...rest } = p;
        const flat: Record<string, unknown> = { ...rest, ...settlementBank };
        return PAYOUT_COLUMNS.map((column) => flat[column]);
      });
    }
    const page = await this.payouts.list(caller, filters, query.toPageRequest());
    const presented = await Promise.all(page.items.map((payout) => this.present(payout)));
    return payinsEnvelope({ ...page, items: presented }, (p) => p);
  }

  @Get('payout/:payoutId')
  @ApiOperation({
    summary: 'Get a payout',
    description: 'Its status, amount, the account it goes to, its schedule and, once it left, its bank reference and arrival date.',
    operationId: 'getPayout',
  })
  @ApiOkResponse({ type: PayoutResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @UuidParam('payoutId') payoutId: string): Promise<PayoutResponse> {
    return this.present(await this.payouts.get(caller, payoutId));
  }

  @Get('payout/:payoutId/transactions')
  @ApiOperation({
    summary: 'The balance transactions a payout swept (and its own)',
    description: 'In the payins paged envelope, newest first; with `Accept: text/csv`, all of them as CSV.',
    operationId: 'listPayoutTransactions',
  })
  @ApiOkResponse({ content: jsonOrCsvContent({ type: 'array', items: { $ref: getSchemaPath(BalanceTransactionPageResponse) } }) })
  @ApiStandardErrors()
  async transactions(
    @CurrentCaller() caller: Caller,
    @UuidParam('payoutId') payoutId: string,
    @Query() query: PageOnlyQuery,
    @Req() request: Request,
  ) {
    const payout = (await this.payouts.get(caller, payoutId)).snapshot();
    const filters = { merchantId: payout.merchantId, payoutId };
    if (wantsCsv(request))
      return csvAnswer(
        `payout-${payoutId}.csv`,
        BALANCE_TRANSACTION_COLUMNS,
        await this.balances.batches(caller, filters),
        balanceTransactionCsvRow,
      );
    return payinsEnvelope(await this.balances.list(caller, filters, query.toPageRequest()), (t) => presentBalanceTransaction(t));
  }

  @Post('payout/:payoutId/cancel')
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a payout that has not left',
    description: 'A PENDING payout (or one waiting unexported in a bank file): CANCELED, and its amount comes back to available.',
    operationId: 'cancelPayout',
  })
  @ApiOkResponse({ type: PayoutResponse })
  @ApiConflictResponse({ type: ErrorResponse, description: 'Payins:PAYOUT_INVALID_STATE: it has left' })
  @ApiStandardErrors()
  async cancel(@CurrentCaller() caller: Caller, @UuidParam('payoutId') payoutId: string): Promise<PayoutResponse> {
    return this.present(await this.payouts.cancel(caller, payoutId));
  }

  private async present(payout: Payout): Promise<PayoutResponse> {
    return payoutRepresentation(payout, await this.payouts.bankOf(payout.snapshot().destination.bankId));
  }

  private async *presentAll(pages: AsyncIterable<readonly Payout[]>): AsyncGenerator<PayoutResponse[]> {
    for await (const page of pages) yield await Promise.all(page.map((payout) => this.present(payout)));
  }
}
