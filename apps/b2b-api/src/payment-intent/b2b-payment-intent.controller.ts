import { Body, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import {
  ApiStandardErrors,
  b2bEnvelope,
  CurrentCaller,
  dateRange,
  ErrorResponse,
  Idempotent,
  OperationId,
  SignedController,
  UuidParam,
  RequestExample,
} from '@pcs/http';
import { asMerchantId, asPaymentIntentId, Money, moneyFromWire } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { B2bPaymentIntentsService } from '@pcs/payments';
import { CreateB2bPaymentIntentDto, ListB2bPaymentIntentsQuery } from './b2b-payment-intent.dto';
import { presentB2bPaymentIntent } from './b2b-payment-intent.presenter';
import { B2bPaymentIntentPageResponse, B2bPaymentIntentResponse } from './b2b-payment-intent.responses';

/** B5–B7 (contract §13): payment intents that send the payer to a hosted checkout. */
@SignedController('payment-intent', 'payment intents', 'payments:write')
export class B2bPaymentIntentController {
  constructor(private readonly intents: B2bPaymentIntentsService) {}

  @Get()
  @ApiOperation({
    summary: 'Get payment intents of the business (paged)',
    description: 'The payment intents created through this API, newest first, in the B2B envelope; `status` is a B2B status code.',
    operationId: 'getPaymentIntents',
  })
  @ApiOkResponse({ type: B2bPaymentIntentPageResponse })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListB2bPaymentIntentsQuery): Promise<B2bPaymentIntentPageResponse> {
    const page = await this.intents.list(
      caller,
      {
        merchantId: query.merchantId ? asMerchantId(query.merchantId) : undefined,
        status: query.status,
        externalReference: query.externalReference,
        ...dateRange(query.dateFrom, query.dateUntil),
      },
      query.toPageRequest(),
    );
    return b2bEnvelope(page, presentB2bPaymentIntent);
  }

  @Post()
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create a payment intent for a merchant',
    description:
      'Answers PAYMENT_METHOD_PENDING with `nextAction.redirect.reference`, the hosted checkout to send the payer to. ' +
      'After paying, the payer returns to `redirectUrl` with signed parameters (see docs/decisions.md, the B2B checkout); confirm with B7 before shipping.',
    operationId: 'createPaymentIntent',
  })
  @RequestExample(CreateB2bPaymentIntentDto, {
    countryCode: 'URY',
    currency: 'UYU',
    amount: 1220,
    externalReference: 'order-2001',
    description: 'Order 2001',
    includeAllPaymentMethods: true,
    redirectUrl: 'https://shop.example/payment-return',
  })
  @ApiOkResponse({ type: B2bPaymentIntentResponse })
  @ApiStandardErrors()
  @ApiConflictResponse({ type: ErrorResponse, description: 'A request with the same Idempotency-Key still running' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponse, description: 'B2B:IDEMPOTENCY_KEY_REUSED' })
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreateB2bPaymentIntentDto,
    @OperationId() operationId?: string,
  ): Promise<B2bPaymentIntentResponse> {
    const { currency } = body;
    const atLeastZero = (field: string, value: number | undefined) =>
      value === undefined ? undefined : value === 0 ? Money.zero(currency) : moneyFromWire(field, value, currency);
    const view = await this.intents.create(
      caller,
      {
        merchantId: body.merchantId ? asMerchantId(body.merchantId) : undefined,
        externalReference: body.externalReference,
        description: body.description,
        countryCode: body.countryCode,
        amount: moneyFromWire('amount', body.amount, currency),
        tip: atLeastZero('amountDetails.tip', body.amountDetails?.tip),
        vatAmount: atLeastZero('amountDetails.vatAmount', body.amountDetails?.vatAmount),
        invoiceDetails: body.invoiceDetails ? { ...body.invoiceDetails } : undefined,
        includeAllPaymentMethods: body.includeAllPaymentMethods,
        paymentMethods: body.paymentMethods
          ? { name: body.paymentMethods.name, networks: body.paymentMethods.options?.networks }
          : undefined,
        redirectUrl: body.redirectUrl,
      },
      operationId,
    );
    return presentB2bPaymentIntent(view);
  }

  @Get(':paymentIntentId')
  @ApiOperation({
    summary: 'Get payment intent details',
    description: 'One payment intent of the caller, with its status, amounts (receivedAmount, refunded) and lastPaymentError.',
    operationId: 'getPaymentIntent',
  })
  @ApiOkResponse({ type: B2bPaymentIntentResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @UuidParam('paymentIntentId') paymentIntentId: string): Promise<B2bPaymentIntentResponse> {
    return presentB2bPaymentIntent(await this.intents.get(caller, asPaymentIntentId(paymentIntentId)));
  }
}
