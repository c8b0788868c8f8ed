import { Body, Get, HttpCode, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import {
  ApiStandardErrors,
  CurrentCaller,
  ErrorResponse,
  Idempotent,
  OperationId,
  SignedController,
  UuidParam,
  RequestExample,
  SignatureVersionRequired,
} from '@pcs/http';
import { asMerchantId, asPayerId, asPaymentInstrumentId, asPaymentIntentId, moneyFromWire, wireAmount } from '@pcs/kernel';
import type { Caller, RefundOrigin } from '@pcs/kernel';
import {
  FastPaymentIntentService,
  PaymentAttemptsService,
  PaymentIntentCreationService,
  PaymentIntentQueriesService,
  RefundsService,
} from '@pcs/payments';
import { presentCountryProcessor } from '../catalog/catalog.presenter';
import { toPayerRequest } from '../payer/dto/payer-request.dto';
import { CreatePaymentIntentDto } from './dto/create-payment-intent.dto';
import { ApiRefundOriginHeader, RefundOriginHeader } from './refund-origin.decorator';
import { FastPaymentIntentDto, InitializePaymentDto, ManualRefundDto, RefundDto } from './dto/other-requests.dto';
import { presentCreation, presentPaymentIntent } from './payment-intent.presenter';
import {
  InitializePaymentResponse,
  PaymentIntentCreationResponse,
  PaymentIntentMethodsResponse,
  PaymentIntentResponse,
} from './payment-intent.responses';

const invalidState = ApiConflictResponse({
  type: ErrorResponse,
  description: 'Payins:PAYMENT_INTENT_INVALID_STATE, or a request with the same Idempotency-Key still running',
});
const keyReused = ApiUnprocessableEntityResponse({ type: ErrorResponse, description: 'Payins:IDEMPOTENCY_KEY_REUSED' });

@SignedController('payment-intent', 'payment intents', 'payments:write')
export class PaymentIntentController {
  constructor(
    private readonly creation: PaymentIntentCreationService,
    private readonly fast: FastPaymentIntentService,
    private readonly queries: PaymentIntentQueriesService,
    private readonly attempts: PaymentAttemptsService,
    private readonly refunds: RefundsService,
  ) {}

  @Post()
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create a payment intent',
    description:
      "Creates a payment intent for a payer, optionally with a payment instrument and confirm to charge it at once. Amounts are decimal numbers in the currency's units (kept as integer minor units). Send an Idempotency-Key header to retry safely: a retry answers the first result. " +
      'A saved card is charged at the processor that keeps it; 400 Payins:OFF_SESSION_NOT_SUPPORTED where the processor charges no saved instrument (or not this one), 409 Payins:OFF_SESSION_NOT_AVAILABLE where the merchant’s account may not charge without the payer (Mercado Pago without automatic payments: `offSessionEnabled`).',
    operationId: 'createPaymentIntent',
  })
  @ApiConflictResponse({
    type: ErrorResponse,
    description: 'Payins:OFF_SESSION_NOT_AVAILABLE, or a request with the same Idempotency-Key still running',
  })
  @RequestExample(CreatePaymentIntentDto, {
    currency: 'UYU',
    amount: 1500.5,
    payinType: 'DEFAULT',
    externalReference: 'order-1001',
    offSession: false,
    invoiceNumber: 1001,
    country: 'URY',
    payerId: '5e2d9c1b-7a4f-4c8e-b3d6-9f1a2e3b4c5d',
    description: 'Order 1001',
  })
  @ApiOkResponse({ type: PaymentIntentCreationResponse })
  @ApiStandardErrors()
  @invalidState
  @keyReused
  async create(
    @CurrentCaller() caller: Caller,
    @Body() body: CreatePaymentIntentDto,
    @OperationId() operationId?: string,
  ): Promise<PaymentIntentCreationResponse> {
    const { payerData, amount, tipAmount, currency, payerId, merchantId, paymentInstrumentId, paymentInstrumentData, ...rest } = body;
    const intent = await this.creation.create(
      caller,
      {
        ...rest,
        payerId: asPayerId(payerId),
        merchantId: asMerchantId(merchantId),
        paymentInstrumentId: asPaymentInstrumentId(paymentInstrumentId),
        ...(paymentInstrumentData
          ? { paymentInstrumentData: { ...paymentInstrumentData, merchantId: asMerchantId(paymentInstrumentData.merchantId) } }
          : {}),
        amount: moneyFromWire('amount', amount, currency),
        ...(tipAmount ? { tipAmount: moneyFromWire('tipAmount', tipAmount, currency) } : {}),
        ...(payerData ? { payerData: toPayerRequest(payerData, 'payerData.address') } : {}),
      },
      operationId,
    );
    return presentCreation(intent);
  }

  @Post('fast')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Create a fast payment intent',
    description: "The merchant is found by its configuration's shortName (fast payments enabled).",
    operationId: 'createFastPaymentIntent',
  })
  @RequestExample(FastPaymentIntentDto, {
    amount: 250,
    currency: 'UYU',
    merchantShortName: 'cafe-centro',
    countryCode: 'URY',
    comment: 'Two coffees',
  })
  @ApiOkResponse({ type: PaymentIntentCreationResponse })
  @ApiStandardErrors()
  @keyReused
  async createFast(
    @CurrentCaller() caller: Caller,
    @Body() body: FastPaymentIntentDto,
    @OperationId() operationId?: string,
  ): Promise<PaymentIntentCreationResponse> {
    const { paymentIntentAdditionalInfo, amount, currency, ...rest } = body;
    const intent = await this.fast.create(
      caller,
      {
        ...rest,
        amount: moneyFromWire('amount', amount, currency),
        paymentIntentAdditionalInfo: paymentIntentAdditionalInfo ? { ...paymentIntentAdditionalInfo } : undefined,
      },
      operationId,
    );
    return presentCreation(intent);
  }

  @Get(':paymentIntentId')
  @ApiOperation({
    summary: 'Get a payment intent',
    description:
      'One payment intent of the caller, with its status, amounts (receivedAmount, refunded), lastPaymentError, and its collection attempts in order (contract §26: each processor tried, its status and why it failed).',
    operationId: 'getPaymentIntent',
  })
  @ApiOkResponse({ type: PaymentIntentResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @UuidParam('paymentIntentId') id: string): Promise<PaymentIntentResponse> {
    const { intent, attempts } = await this.queries.attempts(caller, asPaymentIntentId(id));
    return { ...presentPaymentIntent(intent), attempts };
  }

  @Get(':paymentIntentId/payment-methods')
  @ApiOperation({
    summary: 'Get the payment methods of a payment intent',
    description: "The payment methods the payer can use for this intent: those of the merchant in the intent's country and currency.",
    operationId: 'getPaymentIntentPaymentMethods',
  })
  @ApiOkResponse({ type: PaymentIntentMethodsResponse })
  @ApiStandardErrors()
  async methods(@CurrentCaller() caller: Caller, @UuidParam('paymentIntentId') id: string): Promise<PaymentIntentMethodsResponse> {
    const { processors, paymentData } = await this.queries.methods(caller, asPaymentIntentId(id));
    const p = paymentData.intent.snapshot();
    return {
      paymentIntentAvailablePaymentMethods: processors.map(presentCountryProcessor),
      paymentData: {
        reference: paymentData.reference,
        description: paymentData.description,
        countryId: paymentData.countryId,
        currency: p.currency,
        amount: wireAmount(paymentData.intent.total.minor, p.currency),
        vatAmount: wireAmount(p.taxAmount, p.currency),
        merchantFantasyName: paymentData.merchantFantasyName,
      },
    };
  }

  @Post(':paymentIntentId/initialize')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Initialize a payment (B2B) with a payment method',
    description:
      'Starts the payment at the gateway of the chosen payment method. The intent moves to REQUIRES_ACTION and gatewayUrl is where the payer completes it (the sandbox page in development).',
    operationId: 'initializePayment',
  })
  @RequestExample(InitializePaymentDto, { countryProcessorId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' })
  @ApiOkResponse({ type: InitializePaymentResponse })
  @ApiStandardErrors()
  @invalidState
  @keyReused
  async initialize(
    @CurrentCaller() caller: Caller,
    @UuidParam('paymentIntentId') id: string,
    @Body() body: InitializePaymentDto,
    @OperationId() operationId?: string,
  ): Promise<InitializePaymentResponse> {
    const result = await this.attempts.initialize(
      caller,
      asPaymentIntentId(id),
      body.countryProcessorId,
      operationId,
      undefined,
      undefined,
      body.installments,
    );
    return {
      paymentIntent: presentPaymentIntent(result.intent),
      gatewayReferenceId: result.gatewayReferenceId,
      gatewayUrl: result.gatewayUrl,
    };
  }

  @Post(':paymentIntentId/refund')
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Refund a payment intent',
    description: 'An empty body refunds everything still refundable.',
    operationId: 'refundPaymentIntent',
  })
  @RequestExample(RefundDto, { requestedRefundAmount: 100 })
  @ApiOkResponse({ type: PaymentIntentResponse })
  @ApiRefundOriginHeader()
  @ApiStandardErrors()
  @invalidState
  @keyReused
  async refund(
    @CurrentCaller() caller: Caller,
    @UuidParam('paymentIntentId') id: string,
    @Body() body: RefundDto,
    @RefundOriginHeader() origin: RefundOrigin,
    @OperationId() operationId?: string,
  ): Promise<PaymentIntentResponse> {
    return presentPaymentIntent(await this.refunds.refund(caller, asPaymentIntentId(id), body.requestedRefundAmount, operationId, origin));
  }

  @Post(':paymentIntentId/manual-refund')
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Refund a payment intent (manual refund)',
    description:
      'Records a refund made outside the gateway. MANUAL_REFUND_PENDING reserves the amount; a later call with MANUAL_REFUND_CONFIRMED confirms it. The refundable amount counts manual refunds too.',
    operationId: 'manualRefundPaymentIntent',
  })
  @RequestExample(ManualRefundDto, { requestedRefundAmount: 100, status: 'MANUAL_REFUND_PENDING' })
  @ApiOkResponse({ type: PaymentIntentResponse })
  @ApiRefundOriginHeader()
  @ApiStandardErrors()
  @invalidState
  @keyReused
  async manualRefund(
    @CurrentCaller() caller: Caller,
    @UuidParam('paymentIntentId') id: string,
    @Body() body: ManualRefundDto,
    @RefundOriginHeader() origin: RefundOrigin,
    @OperationId() operationId?: string,
  ): Promise<PaymentIntentResponse> {
    return presentPaymentIntent(
      await this.refunds.manualRefund(caller, asPaymentIntentId(id), body.status, body.requestedRefundAmount, operationId, origin),
    );
  }
}
