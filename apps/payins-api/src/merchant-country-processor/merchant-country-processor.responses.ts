import { ApiProperty } from '@nestjs/swagger';
import { CountryProcessorResponse } from '../catalog/catalog.responses';
import { PricingResponse } from '../settlement/settlement.responses';

class MerchantRefResponse {
  @ApiProperty({ format: 'uuid' }) merchantId: string;
}

export class MerchantCountryProcessorResponse {
  @ApiProperty({ format: 'uuid' }) merchantCountryProcessorId: string;
  @ApiProperty({ type: CountryProcessorResponse }) countryProcessor: CountryProcessorResponse;
  @ApiProperty({ type: MerchantRefResponse }) merchant: MerchantRefResponse;
  @ApiProperty({ enum: ['ONBOARDING', 'ACTIVE', 'REJECTED'] }) onboardingStatus: string;
  @ApiProperty({ description: 'Whether the merchant offers this processor (besides onboarding being ACTIVE)' }) active: boolean;
  @ApiProperty({
    type: PricingResponse,
    description: "What the merchant pays for it (read-only: the operator's pricing:set, or the catalog's)",
  })
  pricing: PricingResponse;
}

export class BusinessCountryProcessorResponse {
  @ApiProperty({ format: 'uuid' }) businessCountryProcessorId: string;
  @ApiProperty({ type: CountryProcessorResponse }) countryProcessor: CountryProcessorResponse;
}
