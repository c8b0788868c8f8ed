import { Body, Delete, Get, Put, Type } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { GatewayAccounts, GatewayAccountView, ProviderAccountBody, ProviderAccountSpec } from '@pcs/gateway-accounts';
import {
  ApiStandardErrors,
  CurrentCaller,
  ErrorResponse,
  RequestExample,
  SignatureVersionRequired,
  SignedController,
  UuidParam,
} from '@pcs/http';
import { asMerchantId } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';

const NO_ACCOUNT = {
  type: ErrorResponse,
  description: 'Payins:MERCHANT_NOT_FOUND, or Payins:GATEWAY_ACCOUNT_NOT_FOUND: no account connected',
};

/** The account's routes for one processor: connect (version 3), read, disconnect (version 3); the answer names hints only. */
export function providerAccountController<B extends ProviderAccountBody, R>(
  spec: ProviderAccountSpec<B, R>,
): Type<{
  connect(caller: Caller, merchantId: string, body: B): Promise<R>;
  get(caller: Caller, merchantId: string): Promise<R>;
  disconnect(caller: Caller, merchantId: string): Promise<unknown>;
}> {
  const answer = (view: GatewayAccountView): R =>
    ({
      provider: spec.provider,
      merchantId: view.merchantId,
      paymentMethods: [...view.paymentMethods],
      fundsFlow: view.fundsFlow,
      ...spec.hintsOf(view),
      ...(spec.answerSettingsOf?.(view) ?? {}),
      createdAt: view.createdAt,
      updatedAt: view.updatedAt,
    }) as R;

  @SignedController(`merchant/:merchantId/gateway-account/${spec.path}`, 'merchants', 'money:write')
  class ProviderAccountController {
    constructor(readonly accounts: GatewayAccounts) {}

    @Put()
    @SignatureVersionRequired(3)
    @ApiOperation(spec.doc.connect)
    @RequestExample(spec.body, spec.example as object)
    @ApiOkResponse({ type: spec.response })
    @ApiStandardErrors()
    async connect(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string, @Body() body: B): Promise<R> {
      const { paymentMethods, fundsFlow } = body;
      return answer(
        await this.accounts.connect(caller, asMerchantId(merchantId), spec.provider, {
          secrets: spec.secretsOf(body),
          paymentMethods,
          fundsFlow,
          settings: spec.settingsOf?.(body),
        }),
      );
    }

    @Get()
    @ApiOperation(spec.doc.get)
    @ApiOkResponse({ type: spec.response })
    @ApiNotFoundResponse(NO_ACCOUNT)
    @ApiStandardErrors({ notFound: false })
    async get(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<R> {
      return answer(await this.accounts.get(caller, asMerchantId(merchantId), spec.provider));
    }

    @Delete()
    @SignatureVersionRequired(3)
    @ApiOperation(spec.doc.disconnect)
    @ApiOkResponse({ type: spec.deleted })
    @ApiNotFoundResponse(NO_ACCOUNT)
    @ApiStandardErrors({ notFound: false })
    disconnect(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<unknown> {
      return this.accounts.disconnect(caller, asMerchantId(merchantId), spec.provider);
    }
  }
  // A generic body's type is not emitted (TypeScript writes Object): the validation pipe and the OpenAPI document read it here.
  Reflect.defineMetadata('design:paramtypes', [Object, String, spec.body], ProviderAccountController.prototype, 'connect');
  Object.defineProperty(ProviderAccountController, 'name', { value: spec.className });
  return ProviderAccountController;
}
