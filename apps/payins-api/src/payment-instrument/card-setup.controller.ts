import { Body, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RuntimeSettings } from '@pcs/config';
import {
  ApiStandardErrors,
  CurrentCaller,
  Idempotent,
  OperationId,
  Optional,
  RequestExample,
  SignedController,
  UuidParam,
} from '@pcs/http';
import { asMerchantId, asPayerId, Currency, InvalidRequestError, moneyFromWire } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { CardSetup, CardSetupService } from '@pcs/payments';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsISO8601,
  IsNumber,
  IsObject,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { PIX_FREQUENCIES } from '@pcs/gateways';
import type { PixFrequency } from '@pcs/gateways';

/** The terms a payer authorises once for Pix Automático (contract §31), as Banco Central's scheme takes them. */
export class PixAutomaticoTermsDto {
  @ApiProperty({ example: 49.9, format: 'decimal', description: 'Every charge, in BRL: exactly this (a fixed-amount authorisation)' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount: number;

  @ApiProperty({ enum: PIX_FREQUENCIES, description: 'Pix Automático’s periodicities: a subscription it pays has the same cycle' })
  @IsIn(PIX_FREQUENCIES)
  frequency: PixFrequency;

  @ApiProperty({
    type: String,
    format: 'date',
    example: '2027-01-10',
    description: 'The first billing date the payer authorises (the subscription’s first charge is on or after it), at least 2 days ahead',
  })
  @IsString()
  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  @IsISO8601({ strict: true })
  startDate: string;

  @ApiPropertyOptional({ maxLength: 140, description: 'What the payer sees in the bank’s app; absent: the merchant’s name' })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(140)
  description?: string;
}

export class StartCardSetupDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  merchantId: string;

  @ApiProperty({ format: 'uuid', description: 'One of the merchant’s payers: the card becomes theirs' })
  @IsUUID('all')
  payerId: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The card method to save at (a country processor the merchant offers); absent: the payer chooses among its card methods',
  })
  @Optional()
  @IsUUID('all')
  countryProcessorId?: string;

  @ApiProperty({
    maxLength: 2048,
    example: 'https://shop.example.com/account/cards',
    description: 'Where the payer goes once the card is saved',
  })
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true, require_tld: false })
  returnUrl: string;

  @ApiPropertyOptional({
    type: PixAutomaticoTermsDto,
    description:
      'Brazil: a Pix Automático authorisation of these terms instead of a card (contract §31); the payer authorises it in the bank’s ' +
      'app from the page, through the processor’s journey (dLocal)',
  })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => PixAutomaticoTermsDto)
  pixAutomatico?: PixAutomaticoTermsDto;
}

export class CardSetupResponse {
  @ApiProperty({ format: 'uuid' }) setupId: string;
  @ApiProperty({ format: 'uri', description: 'The hosted page to send the payer to' }) setupUrl: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ enum: ['OPEN', 'COMPLETED', 'EXPIRED'] }) status: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The instrument saved, once COMPLETED' })
  paymentInstrumentId: string | null;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ format: 'uuid' }) payerId: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** The terms in minor units of BRL, their first date at least 2 days ahead in Brasília (the scheme's earliest charge). */
function pixTermsOf(terms: PixAutomaticoTermsDto) {
  const amount = moneyFromWire('pixAutomatico.amount', terms.amount, Currency.BRL).minor;
  if (amount <= 0) throw new InvalidRequestError(['pixAutomatico.amount'], 'pixAutomatico.amount must be positive');
  const earliest = new Date(Date.now() - 3 * 3_600_000 + 2 * 86_400_000).toISOString().slice(0, 10);
  if (terms.startDate < earliest)
    throw new InvalidRequestError(['pixAutomatico.startDate'], `pixAutomatico.startDate must be ${earliest} or later (2 days ahead)`);
  return { amount, frequency: terms.frequency, startDate: terms.startDate, description: terms.description ?? '' };
}

/** Saving a card without charging it (contract §31): a hosted page of ours, with the processor's card fields. */
@SignedController('payment-instrument/setup', 'payment instruments', 'payments:write')
export class CardSetupController {
  private readonly base: string;

  constructor(
    private readonly setups: CardSetupService,
    settings: RuntimeSettings,
  ) {
    this.base = settings.publicBaseUrl;
  }

  private present(setup: CardSetup): CardSetupResponse {
    const s = setup.snapshot();
    return {
      setupId: s.setupId,
      setupUrl: `${this.base}/setup/${s.setupId}`,
      expiresAt: s.expiresAt.toISOString(),
      status: setup.stateAt(new Date()),
      paymentInstrumentId: s.paymentInstrumentId,
      merchantId: s.merchantId,
      payerId: s.payerId,
      createdAt: s.createdAt.toISOString(),
    };
  }

  @Post()
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Start saving a card',
    description:
      'Answers `setupUrl`, a page where the payer types the card into the fields of the processor that will keep it (Mercado Pago’s ' +
      'Secure Fields, with the public key of the merchant’s account; the sandbox’s own), open 24 hours; ' +
      'the instrument appears when the payer finishes (`payment_instrument.created`), then the payer goes to `returnUrl` with `setupId`. ' +
      '400 Payins:PAYMENT_METHOD_NOT_AVAILABLE when no card method of the merchant is saved here, Payins:OFF_SESSION_NOT_SUPPORTED ' +
      'when the one named is charged at a processor whose fields are not here (dLocal, or Mercado Pago without a public key).',
    operationId: 'startCardSetup',
  })
  @RequestExample(StartCardSetupDto, {
    merchantId: '7d1f0c2e-4b6a-4c8e-9f1a-2b3c4d5e6f70',
    payerId: '1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
    returnUrl: 'https://shop.example.com/account/cards',
  })
  @ApiOkResponse({ type: CardSetupResponse })
  @ApiStandardErrors()
  async start(
    @CurrentCaller() caller: Caller,
    @Body() body: StartCardSetupDto,
    @OperationId() operationId?: string,
  ): Promise<CardSetupResponse> {
    const setup = await this.setups.start(
      caller,
      {
        merchantId: asMerchantId(body.merchantId),
        payerId: asPayerId(body.payerId),
        countryProcessorId: body.countryProcessorId,
        returnUrl: body.returnUrl,
        ...(body.pixAutomatico ? { pixAutomatico: pixTermsOf(body.pixAutomatico) } : {}),
      },
      operationId,
    );
    return this.present(setup);
  }

  @Get(':setupId')
  @ApiOperation({
    summary: 'Get a card setup',
    description: 'Whether the payer finished, and the instrument saved.',
    operationId: 'getCardSetup',
  })
  @ApiOkResponse({ type: CardSetupResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @UuidParam('setupId') setupId: string): Promise<CardSetupResponse> {
    return this.present(await this.setups.get(caller, setupId));
  }
}
