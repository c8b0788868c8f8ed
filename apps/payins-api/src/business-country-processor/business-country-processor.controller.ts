import { Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { BusinessService } from '@pcs/businesses';
import { ApiStandardErrors, CurrentCaller, SignedController } from '@pcs/http';
import type { Caller } from '@pcs/kernel';
import { presentCountryProcessor } from '../catalog/catalog.presenter';
import { BusinessCountryProcessorResponse } from '../merchant-country-processor/merchant-country-processor.responses';

@SignedController('business-country-processor', 'business country processors', 'merchants:write')
export class BusinessCountryProcessorController {
  constructor(private readonly businesses: BusinessService) {}

  @Get()
  @ApiOperation({
    summary: 'Get business country processors',
    description: "The country processors (gateways per country) enabled for the caller's business, which its merchants can be related to.",
    operationId: 'getBusinessCountryProcessors',
  })
  @ApiOkResponse({ type: [BusinessCountryProcessorResponse] })
  @ApiStandardErrors({ notFound: false })
  async list(@CurrentCaller() caller: Caller): Promise<BusinessCountryProcessorResponse[]> {
    const rows = await this.businesses.listCountryProcessors(caller.businessId);
    return rows.map((row) => ({
      businessCountryProcessorId: row.businessCountryProcessorId,
      countryProcessor: presentCountryProcessor(row.countryProcessor),
    }));
  }
}
