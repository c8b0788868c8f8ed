import { Body, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiExtraModels, ApiOkResponse, ApiOperation, getSchemaPath } from '@nestjs/swagger';
import { Invoice, invoiceRepresentation, Subscription, SubscriptionsService, subscriptionRepresentation } from '@pcs/billing';
import {
  ApiStandardErrors,
  CurrentCaller,
  ErrorResponse,
  Idempotent,
  OperationId,
  payinsEnvelope,
  RequestExample,
  SignedController,
  UuidParam,
} from '@pcs/http';
import { asMerchantId, asPayerId, asPaymentInstrumentId, moneyFromWire } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import {
  CancelSubscriptionDto,
  CreateSubscriptionDto,
  ListInvoicesQuery,
  ListSubscriptionsQuery,
  UpdateSubscriptionDto,
} from './subscription.dto';
import { InvoicePageResponse, InvoiceResponse, SubscriptionPageResponse, SubscriptionResponse } from './subscription.responses';

const presentSubscription = (subscription: Subscription): SubscriptionResponse => subscriptionRepresentation(subscription);
const presentInvoice = (invoice: Invoice): InvoiceResponse => invoiceRepresentation(invoice);

/** Subscriptions and their invoices (contract §31): a saved instrument charged every period, with dunning. */
@SignedController('', 'subscriptions', 'payments:write')
@ApiExtraModels(SubscriptionPageResponse, InvoicePageResponse)
export class SubscriptionController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Post('subscription')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create a subscription',
    description:
      'Charges the payer’s saved instrument every `intervalCount` intervals from `startDate` (or now), after `trialDays`, in the ' +
      'merchant’s time zone; each period has an invoice charged off-session on its date. 400 for an amount below the processor’s ' +
      'minimum, a processor that does not charge saved instruments (Payins:OFF_SESSION_NOT_SUPPORTED) or, on a test clock, an ' +
      'instrument the sandbox does not charge (Payins:TEST_CLOCK_NEEDS_SANDBOX); 404 for a payer, instrument or clock not the merchant’s; ' +
      '409 Payins:OFF_SESSION_NOT_AVAILABLE where the merchant’s account may not charge without the payer (Mercado Pago without ' +
      'automatic payments: `offSessionEnabled`).',
    operationId: 'createSubscription',
  })
  @ApiConflictResponse({
    type: ErrorResponse,
    description: 'Payins:OFF_SESSION_NOT_AVAILABLE, Payins:TEST_CLOCK_DELETED or Payins:IDEMPOTENCY_REQUEST_IN_PROGRESS',
  })
  @RequestExample(CreateSubscriptionDto, {
    merchantId: '7d1f0c2e-4b6a-4c8e-9f1a-2b3c4d5e6f70',
    payerId: '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    paymentInstrumentId: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
    amount: 990,
    currency: 'UYU',
    interval: 'MONTH',
    intervalCount: 1,
    startDate: '2027-01-31',
    description: 'Gym membership',
  })
  @ApiOkResponse({ type: SubscriptionResponse })
  @ApiStandardErrors()
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateSubscriptionDto,
    @OperationId() operationId?: string,
  ): Promise<SubscriptionResponse> {
    return presentSubscription(
      await this.subscriptions.create(
        caller,
        {
          merchantId: asMerchantId(body.merchantId),
          payerId: asPayerId(body.payerId),
          paymentInstrumentId: asPaymentInstrumentId(body.paymentInstrumentId),
          amount: moneyFromWire('amount', body.amount, body.currency),
          interval: body.interval,
          intervalCount: body.intervalCount,
          startDate: body.startDate,
          trialDays: body.trialDays,
          description: body.description,
          metadata: body.metadata,
          testClockId: body.testClockId,
        },
        operationId,
      ),
    );
  }

  @Get('subscription')
  @ApiOperation({
    summary: 'List subscriptions (paged)',
    description: 'Newest first, in the payins paged envelope.',
    operationId: 'listSubscriptions',
  })
  @ApiOkResponse({ schema: { type: 'array', items: { $ref: getSchemaPath(SubscriptionPageResponse) } } })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListSubscriptionsQuery) {
    const filters = { merchantId: asMerchantId(query.merchantId), payerId: query.payerId, status: query.status };
    return payinsEnvelope(await this.subscriptions.list(caller, filters, query.toPageRequest()), presentSubscription);
  }

  @Get('subscription/:subscriptionId')
  @ApiOperation({
    summary: 'Get a subscription',
    description: 'Its status, current period, next charge and instrument.',
    operationId: 'getSubscription',
  })
  @ApiOkResponse({ type: SubscriptionResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @UuidParam('subscriptionId') subscriptionId: string): Promise<SubscriptionResponse> {
    return presentSubscription(await this.subscriptions.get(caller, subscriptionId));
  }

  @Patch('subscription/:subscriptionId')
  @ApiOperation({
    summary: 'Update a subscription',
    description:
      'Amount, instrument or description, from the next period. A new instrument is also tried at once on the open invoices a ' +
      'decline left waiting. 409 once canceled.',
    operationId: 'updateSubscription',
  })
  @RequestExample(UpdateSubscriptionDto, { amount: 1090, description: 'Club membership (2027 price)' })
  @ApiOkResponse({ type: SubscriptionResponse })
  @ApiConflictResponse({ type: ErrorResponse, description: 'Payins:SUBSCRIPTION_INVALID_STATE' })
  @ApiStandardErrors()
  async update(
    @CurrentCaller() caller: Caller,
    @UuidParam('subscriptionId') subscriptionId: string,
    @Body() body: UpdateSubscriptionDto,
  ): Promise<SubscriptionResponse> {
    const current = (await this.subscriptions.get(caller, subscriptionId)).snapshot();
    return presentSubscription(
      await this.subscriptions.update(caller, subscriptionId, {
        amount: body.amount === undefined ? undefined : moneyFromWire('amount', body.amount, current.currency),
        paymentInstrumentId: asPaymentInstrumentId(body.paymentInstrumentId),
        description: body.description,
      }),
    );
  }

  @Post('subscription/:subscriptionId/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a subscription',
    description: 'Now (its open invoices are voided) or, with `atPeriodEnd`, when the current period ends. 409 once canceled.',
    operationId: 'cancelSubscription',
  })
  @RequestExample(CancelSubscriptionDto, { atPeriodEnd: true })
  @ApiOkResponse({ type: SubscriptionResponse })
  @ApiConflictResponse({ type: ErrorResponse, description: 'Payins:SUBSCRIPTION_INVALID_STATE' })
  @ApiStandardErrors()
  async cancel(
    @CurrentCaller() caller: Caller,
    @UuidParam('subscriptionId') subscriptionId: string,
    @Body() body: CancelSubscriptionDto,
  ): Promise<SubscriptionResponse> {
    return presentSubscription(await this.subscriptions.cancel(caller, subscriptionId, body.atPeriodEnd ?? false));
  }

  @Post('subscription/:subscriptionId/pause')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Pause a subscription',
    description: 'Nothing is invoiced while PAUSED; open invoices go on with dunning. 409 unless TRIALING, ACTIVE or PAST_DUE.',
    operationId: 'pauseSubscription',
  })
  @ApiOkResponse({ type: SubscriptionResponse })
  @ApiConflictResponse({ type: ErrorResponse, description: 'Payins:SUBSCRIPTION_INVALID_STATE' })
  @ApiStandardErrors()
  async pause(@CurrentCaller() caller: Caller, @UuidParam('subscriptionId') subscriptionId: string): Promise<SubscriptionResponse> {
    return presentSubscription(await this.subscriptions.pause(caller, subscriptionId));
  }

  @Post('subscription/:subscriptionId/resume')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Resume a paused or unpaid subscription',
    description:
      'Billing goes on with the first period that starts from now; the periods it was paused through (or unpaid) are not billed. ' +
      '409 unless PAUSED or UNPAID.',
    operationId: 'resumeSubscription',
  })
  @ApiOkResponse({ type: SubscriptionResponse })
  @ApiConflictResponse({ type: ErrorResponse, description: 'Payins:SUBSCRIPTION_INVALID_STATE' })
  @ApiStandardErrors()
  async resume(@CurrentCaller() caller: Caller, @UuidParam('subscriptionId') subscriptionId: string): Promise<SubscriptionResponse> {
    return presentSubscription(await this.subscriptions.resume(caller, subscriptionId));
  }

  @Get('invoice')
  @ApiOperation({
    summary: 'List invoices (paged)',
    description: 'Newest first, in the payins paged envelope; `subscriptionId` narrows to one subscription’s.',
    operationId: 'listInvoices',
  })
  @ApiOkResponse({ schema: { type: 'array', items: { $ref: getSchemaPath(InvoicePageResponse) } } })
  @ApiStandardErrors()
  async invoices(@CurrentCaller() caller: Caller, @Query() query: ListInvoicesQuery) {
    const filters = { merchantId: asMerchantId(query.merchantId), subscriptionId: query.subscriptionId, status: query.status };
    return payinsEnvelope(await this.subscriptions.invoices(caller, filters, query.toPageRequest()), presentInvoice);
  }

  @Get('invoice/:invoiceId')
  @ApiOperation({
    summary: 'Get an invoice',
    description: 'One period’s invoice: its status, charges made, last decline and next try.',
    operationId: 'getInvoice',
  })
  @ApiOkResponse({ type: InvoiceResponse })
  @ApiStandardErrors()
  async invoice(@CurrentCaller() caller: Caller, @UuidParam('invoiceId') invoiceId: string): Promise<InvoiceResponse> {
    return presentInvoice(await this.subscriptions.invoice(caller, invoiceId));
  }
}
