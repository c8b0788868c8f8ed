import { Body, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import {
  ApiStandardErrors,
  CurrentCaller,
  ErrorResponse,
  SignedController,
  UuidParam,
  RequestExample,
  SignatureVersionRequired,
} from '@pcs/http';
import type { Caller } from '@pcs/kernel';
import { MerchantCountryProcessorService, MerchantCountryProcessorView } from '@pcs/merchants';
import { presentCountryProcessor } from '../catalog/catalog.presenter';
import {
  MerchantCountryProcessorsQuery,
  RelateCountryProcessorsDto,
  UpdateMerchantCountryProcessorDto,
} from './dto/merchant-country-processor.dto';
import { MerchantCountryProcessorResponse } from './merchant-country-processor.responses';
import { asMerchantId } from '@pcs/kernel';
import { pricingRepresentation, PricingService } from '@pcs/settlement';

@SignedController('merchant-country-processor', 'merchant country processors', 'merchants:write')
export class MerchantCountryProcessorController {
  constructor(
    private readonly relationships: MerchantCountryProcessorService,
    private readonly pricing: PricingService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Get country processors of a merchant',
    description:
      "The merchant's relationships with country processors, each with its onboardingStatus and whether it is active. Only ACTIVE and active relationships are offered to payers.",
    operationId: 'getMerchantCountryProcessors',
  })
  @ApiOkResponse({ type: [MerchantCountryProcessorResponse] })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @Query() query: MerchantCountryProcessorsQuery): Promise<MerchantCountryProcessorResponse[]> {
    return this.present(await this.relationships.list(caller, asMerchantId(query.merchantId)));
  }

  @Post()
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create relationships between a merchant and country processors',
    description: 'Idempotent: processors already related are returned unchanged. New relationships start in ONBOARDING.',
    operationId: 'relateMerchantCountryProcessors',
  })
  @RequestExample(RelateCountryProcessorsDto, {
    countryProcessorsId: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'],
    merchantId: '0b7c6e2a-5d4f-4e3b-9a1c-2f8e7d6c5b4a',
  })
  @ApiOkResponse({ type: [MerchantCountryProcessorResponse] })
  @ApiStandardErrors()
  async relate(@CurrentCaller() caller: Caller, @Body() body: RelateCountryProcessorsDto): Promise<MerchantCountryProcessorResponse[]> {
    return this.present(await this.relationships.relate(caller, asMerchantId(body.merchantId), body.countryProcessorsId));
  }

  @Patch(':merchantCountryProcessorId')
  @SignatureVersionRequired(3)
  @ApiOperation({
    summary: 'Update a merchant country processor (status of the relationship and the country processor)',
    description: 'Switches the relationship on or off (active), or moves it to another country processor the business has enabled.',
    operationId: 'updateMerchantCountryProcessor',
  })
  @RequestExample(UpdateMerchantCountryProcessorDto, { active: false })
  @ApiOkResponse({ type: MerchantCountryProcessorResponse })
  @ApiConflictResponse({
    type: ErrorResponse,
    description: 'Payins:MERCHANT_COUNTRY_PROCESSOR_ALREADY_EXISTS: the merchant is already related to that country processor',
  })
  @ApiStandardErrors()
  async update(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantCountryProcessorId') id: string,
    @Body() body: UpdateMerchantCountryProcessorDto,
  ): Promise<MerchantCountryProcessorResponse> {
    return (await this.present([await this.relationships.update(caller, id, body)]))[0];
  }

  /** Each relationship with its price (contract §19: read-only, the merchant's own or the catalog's). */
  private async present(views: readonly MerchantCountryProcessorView[]): Promise<MerchantCountryProcessorResponse[]> {
    return Promise.all(
      views.map(async ({ relationship, countryProcessor }) => ({
        merchantCountryProcessorId: relationship.merchantCountryProcessorId,
        countryProcessor: presentCountryProcessor(countryProcessor),
        merchant: { merchantId: relationship.merchantId },
        onboardingStatus: relationship.onboardingStatus,
        active: relationship.active,
        pricing: pricingRepresentation(await this.pricing.priceOf(relationship.merchantId, countryProcessor)),
      })),
    );
  }
}
