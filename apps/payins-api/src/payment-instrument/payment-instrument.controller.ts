import { Body, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { ApiStandardErrors, CurrentCaller, Optional, SignedController, UuidParam, RequestExample } from '@pcs/http';
import { PaymentInstrumentService } from '@pcs/payment-instruments';
import { toPayerRequest } from '../payer/dto/payer-request.dto';
import { CreatePaymentInstrumentDto } from './dto/create-payment-instrument.dto';
import { presentPaymentInstrument } from './payment-instrument.presenter';
import { PaymentInstrumentResponse } from './payment-instrument.responses';
import { asMerchantId, asPayerId, asPaymentInstrumentId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';

class ListPaymentInstrumentsQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;
}

@SignedController('payment-instrument', 'payment instruments', 'payments:write')
export class PaymentInstrumentController {
  constructor(private readonly instruments: PaymentInstrumentService) {}

  @Get('payer/:payerId')
  @ApiOperation({
    summary: "Get a payer's payment instruments (second listing of the same shape)",
    description: "The payer's saved payment instruments, as GET /payer/{payerId}/payment-instruments answers them.",
    operationId: 'getPaymentInstrumentsOfPayer',
  })
  @ApiOkResponse({ type: [PaymentInstrumentResponse] })
  @ApiStandardErrors()
  async ofPayer(@CurrentCaller() caller: Caller, @UuidParam('payerId') payerId: string): Promise<PaymentInstrumentResponse[]> {
    return (await this.instruments.listOfPayer(caller, asPayerId(payerId))).map(presentPaymentInstrument);
  }

  @Get()
  @ApiOperation({
    summary: 'Get payment instruments',
    description: "The caller's newest 100 instruments, optionally of one merchant.",
    operationId: 'listPaymentInstruments',
  })
  @ApiOkResponse({ type: [PaymentInstrumentResponse] })
  @ApiStandardErrors({ notFound: false })
  async list(@CurrentCaller() caller: Caller, @Query() query: ListPaymentInstrumentsQuery): Promise<PaymentInstrumentResponse[]> {
    return (await this.instruments.list(caller, asMerchantId(query.merchantId))).map(presentPaymentInstrument);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a payment instrument (an existing one can be used, or one is created in this step)',
    description:
      "Returns the payer's ACTIVE instrument for the same method and country when there is one. The merchant must offer the method in that country.",
    operationId: 'createPaymentInstrument',
  })
  @RequestExample(CreatePaymentInstrumentDto, {
    payerId: '5e2d9c1b-7a4f-4c8e-b3d6-9f1a2e3b4c5d',
    paymentMethodName: 'VISA',
    country: 'URY',
  })
  @ApiOkResponse({ type: PaymentInstrumentResponse })
  @ApiStandardErrors()
  async create(@CurrentCaller() caller: Caller, @Body() body: CreatePaymentInstrumentDto): Promise<PaymentInstrumentResponse> {
    const { payerData, payerId, ...rest } = body;
    const view = await this.instruments.create(caller, {
      ...rest,
      payerId: asPayerId(payerId),
      ...(payerData ? { payerData: toPayerRequest(payerData, 'payerData.address') } : {}),
    });
    return presentPaymentInstrument(view);
  }

  @Get(':paymentInstrumentId')
  @ApiOperation({
    summary: 'Get a payment instrument',
    description: "One payment instrument of the caller's merchant.",
    operationId: 'getPaymentInstrument',
  })
  @ApiOkResponse({ type: PaymentInstrumentResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @UuidParam('paymentInstrumentId') id: string): Promise<PaymentInstrumentResponse> {
    return presentPaymentInstrument(await this.instruments.get(caller, asPaymentInstrumentId(id)));
  }
}
