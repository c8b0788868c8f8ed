import { Body, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiExtraModels, ApiOkResponse, ApiOperation, getSchemaPath } from '@nestjs/swagger';
import {
  ApiStandardErrors,
  CurrentCaller,
  ErrorResponse,
  InvalidRequestsAs,
  payinsEnvelope,
  SignedController,
  SignatureVersionRequired,
  UuidParam,
  RequestExample,
} from '@pcs/http';
import { PaymentInstrumentService } from '@pcs/payment-instruments';
import { PayerService } from '@pcs/payers';
import { DeletedResponse } from '../merchant/merchant.responses';
import { presentPaymentInstrument } from '../payment-instrument/payment-instrument.presenter';
import { PaymentInstrumentResponse } from '../payment-instrument/payment-instrument.responses';
import { ListPayersQuery, UpdatePayerDto } from './dto/payer-queries.dto';
import { PayerRequestDto, toPayerAddress, toPayerRequest } from './dto/payer-request.dto';
import { presentPayer } from './payer.presenter';
import { PayerPageResponse, PayerResponse } from './payer.responses';
import { asMerchantId, asPayerId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';

@SignedController('payer', 'payers', 'payments:write')
@ApiExtraModels(PayerPageResponse)
export class PayerController {
  constructor(
    private readonly payers: PayerService,
    private readonly instruments: PaymentInstrumentService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Get payers (paged)',
    description: "The merchant's payers, newest first, in the payins paged envelope.",
    operationId: 'listPayers',
  })
  @ApiOkResponse({ schema: { type: 'array', items: { $ref: getSchemaPath(PayerPageResponse) } } })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @Query() query: ListPayersQuery) {
    const page = await this.payers.list(
      caller,
      { searchTerm: query.searchTerm, merchantId: asMerchantId(query.merchantId) },
      query.toPageRequest(),
    );
    return payinsEnvelope(page, presentPayer);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a payer',
    description:
      'Creates a payer of the merchant. A document (type and number) can belong to one payer per merchant: a second one is a 409 that names the payer holding it.',
    operationId: 'createPayer',
  })
  @RequestExample(PayerRequestDto, {
    firstName: 'Ana',
    lastName: 'Pérez',
    documentType: 'IDENTITY_DOCUMENT',
    document: '12345672',
    email: 'ana.perez@example.uy',
    phone: '+59899123456',
    country: 'URY',
  })
  @ApiOkResponse({ type: PayerResponse })
  @ApiConflictResponse({ type: ErrorResponse, description: 'Payins:PAYER_ALREADY_EXISTS names the payer that holds the document' })
  @ApiStandardErrors()
  async create(@CurrentCaller() caller: Caller, @Body() body: PayerRequestDto): Promise<PayerResponse> {
    return presentPayer(await this.payers.create(caller, toPayerRequest(body)));
  }

  @Get(':payerId')
  @ApiOperation({
    summary: 'Get a payer',
    description: "One payer of the caller's merchant; another merchant's or a deleted payer is a 404.",
    operationId: 'getPayer',
  })
  @ApiOkResponse({ type: PayerResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @UuidParam('payerId') payerId: string): Promise<PayerResponse> {
    return presentPayer(await this.payers.get(caller, asPayerId(payerId)));
  }

  @Patch(':payerId')
  @ApiOperation({
    summary: 'Update a payer',
    description: 'Changes only the fields sent; the others keep their values. Answers the payer as it is now.',
    operationId: 'updatePayer',
  })
  @RequestExample(UpdatePayerDto, { email: 'ana.perez@example.uy', phone: '+59899123457' })
  @ApiOkResponse({ type: PayerResponse })
  @ApiStandardErrors()
  async update(
    @CurrentCaller() caller: Caller,
    @UuidParam('payerId') payerId: string,
    @Body() body: UpdatePayerDto,
  ): Promise<PayerResponse> {
    const { merchantExternalId, address, ...rest } = body;
    return presentPayer(
      await this.payers.update(caller, asPayerId(payerId), {
        ...rest,
        ...(merchantExternalId !== undefined ? { externalId: merchantExternalId } : {}),
        ...(address !== undefined ? { address: toPayerAddress(address) } : {}),
      }),
    );
  }

  @Delete(':payerId')
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @InvalidRequestsAs('ERROR_IN_DELETE_PAYER')
  @ApiOperation({
    summary: 'Delete a payer',
    description:
      'Refused (400 Payins:ERROR_IN_DELETE_PAYER) while the payer has payment intents that are not final. Every 400 of this operation has that errorId.',
    operationId: 'deletePayer',
  })
  @ApiOkResponse({ type: DeletedResponse })
  @ApiStandardErrors()
  async delete(@CurrentCaller() caller: Caller, @UuidParam('payerId') payerId: string): Promise<DeletedResponse> {
    await this.payers.delete(caller, asPayerId(payerId));
    return { success: true, id: payerId };
  }

  @Get(':payerId/payment-instruments')
  @ApiOperation({
    summary: "Get a payer's payment instruments",
    description: "The payer's saved payment instruments (tokens and masked data only; card numbers never reach this API).",
    operationId: 'getPayerPaymentInstruments',
  })
  @ApiOkResponse({ type: [PaymentInstrumentResponse] })
  @ApiStandardErrors()
  async paymentInstruments(@CurrentCaller() caller: Caller, @UuidParam('payerId') payerId: string): Promise<PaymentInstrumentResponse[]> {
    return (await this.instruments.listOfPayer(caller, asPayerId(payerId))).map(presentPaymentInstrument);
  }
}
