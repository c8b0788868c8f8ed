import { Body, Delete, Get, HttpCode, Inject, Patch, Put, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, getSchemaPath } from '@nestjs/swagger';
import { RuntimeSettings } from '@pcs/config';
import {
  ApiStandardErrors,
  CurrentCaller,
  InvalidRequestsAs,
  payinsEnvelope,
  SignedController,
  UuidParam,
  SignatureVersionRequired,
  RequestExample,
} from '@pcs/http';
import { MerchantConfigurationService, MerchantService, MerchantView } from '@pcs/merchants';
import { SettlementAccountsService } from '@pcs/settlement';
import { ProcessorRoutes } from '@pcs/gateways';
import { presentPaymentMethod } from '../catalog/catalog.presenter';
import { PaymentMethodSummaryResponse } from '../catalog/catalog.responses';
import { ListMerchantsQuery } from './dto/list-merchants.query';
import { MerchantConfigurationDto } from './dto/merchant-configuration.dto';
import { UpdateMerchantDto } from './dto/update-merchant.dto';
import { presentConfiguration, presentMerchant } from './merchant.presenter';
import { DeletedResponse, MerchantConfigurationResponse, MerchantPageResponse, MerchantResponse } from './merchant.responses';
import { asMerchantId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';

@SignedController('merchant', 'merchants', 'merchants:write')
@ApiExtraModels(MerchantPageResponse)
export class MerchantController {
  constructor(
    private readonly merchants: MerchantService,
    private readonly configurations: MerchantConfigurationService,
    private readonly accounts: SettlementAccountsService,
    @Inject(RuntimeSettings) private readonly settings: RuntimeSettings,
    private readonly routes: ProcessorRoutes,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'List merchants (paged)',
    description:
      "The caller's merchants, newest first, in the payins paged envelope: all the business's merchants with business credentials, only itself with merchant credentials. apiKey and apiSecret are shown only to the owning business's credentials.",
    operationId: 'listMerchants',
  })
  @ApiOkResponse({ schema: { type: 'array', items: { $ref: getSchemaPath(MerchantPageResponse) } } })
  @ApiStandardErrors({ notFound: false })
  async list(@CurrentCaller() caller: Caller, @Query() query: ListMerchantsQuery) {
    const page = await this.merchants.list(caller, query.toPageRequest(), query.searchTerm);
    const accounts = await this.accounts.accountsOf(page.items.map((view) => view.merchant.merchantId));
    return payinsEnvelope(page, (view) => presentMerchant(view, accounts));
  }

  @Get(':merchantId')
  @ApiOperation({
    summary: 'Get a merchant',
    description: "One merchant of the caller. Another business's or a deleted merchant is a 404.",
    operationId: 'getMerchant',
  })
  @ApiOkResponse({ type: MerchantResponse })
  @ApiStandardErrors()
  async get(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<MerchantResponse> {
    return this.present(await this.merchants.get(caller, asMerchantId(merchantId)));
  }

  @Patch(':merchantId')
  @SignatureVersionRequired(3, { test: changesSettlementBank, description: 'the body carries account.settlementBank' })
  @ApiOperation({
    summary: 'Update a merchant',
    description: 'Changes only the fields sent; the others keep their values. Answers the merchant as it is now.',
    operationId: 'updateMerchant',
  })
  @RequestExample(UpdateMerchantDto, { merchantName: 'Tienda Pocitos', email: 'ventas@tienda.example.uy' })
  @ApiOkResponse({ type: MerchantResponse })
  @ApiStandardErrors()
  async update(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantId') merchantId: string,
    @Body() body: UpdateMerchantDto,
  ): Promise<MerchantResponse> {
    const { account, address, ...rest } = body;
    // The seed's settlementBank sets the settlement account of its currency, checked, in the update's transaction (contract §19).
    const view = await this.accounts.updateMerchant(caller, asMerchantId(merchantId), {
      ...rest,
      ...(address !== undefined ? { address: { ...address } } : {}),
      ...(account !== undefined
        ? {
            account: {
              serviceAccount: account.serviceAccount ?? null,
              settlementBank: account.settlementBank
                ? {
                    settlementBankId: account.settlementBank.settlementBankId ?? null,
                    bankId: account.settlementBank.bankId ?? null,
                    accountNumber: account.settlementBank.accountNumber ?? null,
                    currency: account.settlementBank.currency ?? null,
                  }
                : null,
            },
          }
        : {}),
    });
    return this.present(view);
  }

  @Delete(':merchantId')
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Delete a merchant',
    description:
      'A soft delete: the merchant disappears from the API (404 afterwards) and its financial records stay. Answers { success: true, merchantId }.',
    operationId: 'deleteMerchant',
  })
  @ApiOkResponse({ type: DeletedResponse })
  @ApiStandardErrors()
  async delete(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<DeletedResponse> {
    await this.merchants.delete(caller, asMerchantId(merchantId));
    return { success: true, id: merchantId };
  }

  @Get(':merchantId/payment-methods')
  @ApiOperation({
    summary: 'Get the payment methods of a merchant',
    description: 'The payment methods the merchant can offer: those of its ACTIVE and active country processors, per country.',
    operationId: 'getMerchantPaymentMethods',
  })
  @ApiOkResponse({ type: [PaymentMethodSummaryResponse] })
  @ApiStandardErrors()
  async paymentMethods(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantId') merchantId: string,
  ): Promise<PaymentMethodSummaryResponse[]> {
    const methods = await this.merchants.paymentMethods(caller, asMerchantId(merchantId));
    return methods.map((m) => presentPaymentMethod(m, this.settings));
  }

  @Get(':merchantId/configuration')
  @ApiOperation({
    summary: 'Get merchant configuration',
    description: "The merchant's configuration: fees, VAT per country, accounts and settlement banks.",
    operationId: 'getMerchantConfiguration',
  })
  @ApiOkResponse({ type: MerchantConfigurationResponse })
  @ApiStandardErrors()
  async getConfiguration(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantId') merchantId: string,
  ): Promise<MerchantConfigurationResponse> {
    return presentConfiguration(await this.configurations.get(caller, asMerchantId(merchantId)));
  }

  @Put(':merchantId/configuration')
  // Every 400, routing rules' included, is the specification's errorId, its message naming the reason (contract §30).
  @InvalidRequestsAs('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION')
  @ApiOperation({
    summary: 'Create or update configuration of a merchant',
    description:
      'Every 400 of this operation has errorId Payins:ERROR_IN_UPDATE_MERCHANT_CONFIGURATION (contract §30), routing rules included; the message names the reason (a rule as `routing[<i>]`).',
    operationId: 'upsertMerchantConfiguration',
  })
  @RequestExample(MerchantConfigurationDto, {
    shortName: 'cafe-centro',
    notificationEmails: ['ops@cafe-centro.example.uy'],
    paymentSuccessNotification: true,
    paymentErrorNotification: true,
    merchantCountryConfigurations: [{ countryIsoAlpha3: 'URY', vatPercentage: 22 }],
    payoutSchedule: { interval: 'WEEKLY', weeklyAnchor: 'FRIDAY', minimumAmount: { UYU: 1000 } },
    installments: { URY: { maxInstallments: 6, interestFreeUpTo: 3, minInstallmentAmount: { UYU: 200 } } },
    routing: [{ paymentMethod: 'VISA', country: 'URY', processors: ['SANDBOX'] }],
    cardTestingGuard: { maxDeclinesPerCard: 3, blockMinutes: 120 },
  })
  @ApiOkResponse({ type: MerchantConfigurationResponse })
  @ApiStandardErrors()
  async upsertConfiguration(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantId') merchantId: string,
    @Body() body: MerchantConfigurationDto,
  ): Promise<MerchantConfigurationResponse> {
    return presentConfiguration(
      await this.configurations.upsert(caller, asMerchantId(merchantId), body, {
        // Routing rules name only processors the merchant is connected to (contract §26).
        routing: (merchant, rules, tx) => this.routes.assertConnected(merchant, rules, tx),
      }),
    );
  }

  private async present(view: MerchantView): Promise<MerchantResponse> {
    return presentMerchant(view, await this.accounts.accountsOf([view.merchant.merchantId]));
  }
}

/** A PATCH /merchant that sets a settlement account (the seed's `account.settlementBank`): money's door, version 2 only (contract §27). */
function changesSettlementBank(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const account = (body as { account?: unknown }).account;
  return typeof account === 'object' && account !== null && 'settlementBank' in account;
}
