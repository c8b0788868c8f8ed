import { Body, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { readSettlementConfirmation, RuntimeSettings } from '@pcs/config';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import {
  ApiStandardErrors,
  CurrentCaller,
  ErrorResponse,
  SignedController,
  UuidParam,
  SignatureVersionRequired,
  RequestExample,
} from '@pcs/http';
import { asMerchantId, Currency, InvalidRequestError, isCurrency } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { settlementAccountRepresentation, SettlementAccountsService } from '@pcs/settlement';
import { ConfirmSettlementAccountDto, PutSettlementAccountDto } from './settlement.dto';
import { SettlementAccountResponse } from './settlement.responses';

/** A merchant's settlement accounts, one per currency (contract §19). */
@SignedController('merchant/:merchantId/settlement-account', 'settlement', 'money:write')
export class SettlementAccountController {
  constructor(
    private readonly accounts: SettlementAccountsService,
    private readonly settings: RuntimeSettings,
  ) {}

  @Put(':currency')
  @SignatureVersionRequired(3)
  @ApiOperation({
    summary: "Set the merchant's settlement account in a currency",
    description:
      'Where payouts in that currency go. Checked against its country: a CBU/CVU with both check digits at its bank (Argentina), branch and ' +
      'account or a PIX key (Brazil), the bank’s digits (Uruguay). A bad one is a 400 Payins:INVALID_SETTLEMENT_ACCOUNT. ' +
      'Any account but the merchant’s first puts payouts to it on hold for SETTLEMENT_ACCOUNT_HOLD_HOURS (holdUntil), sends the event ' +
      'settlement_account.updated and a mail to the merchant’s notification addresses and the business’s admins (contract §24).',
    operationId: 'putSettlementAccount',
  })
  @RequestExample(PutSettlementAccountDto, {
    bankId: '4d3c2b1a-0f9e-4d8c-9b7a-6e5d4c3b2a19',
    accountNumber: '001234567',
    accountType: 'CHECKING',
    holderDocument: '12345672',
  })
  @ApiParam({ name: 'currency', enum: Currency })
  @ApiOkResponse({ type: SettlementAccountResponse })
  @ApiStandardErrors()
  async put(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantId') merchantId: string,
    @Param('currency') currency: string,
    @Body() body: PutSettlementAccountDto,
  ): Promise<SettlementAccountResponse> {
    if (!isCurrency(currency)) throw new InvalidRequestError(['currency'], 'currency must be a supported currency');
    return settlementAccountRepresentation(await this.accounts.put(caller, asMerchantId(merchantId), currency, body));
  }

  @Post(':currency/confirm')
  @SignatureVersionRequired(3)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm a settlement account, ending its hold or the stop of a returned payout',
    description:
      'A settlement account set or changed after the first waits SETTLEMENT_ACCOUNT_HOLD_HOURS before payouts go to it, and one a bank ' +
      'returned a payout from takes none until it is changed or confirmed (contract §24). ' +
      'An enabled admin of the business ends either on the dashboard’s balance page, with a fresh code of their authenticator: the ' +
      'dashboard checks the code and sends its confirmation here (contract §30: this API takes no person’s code). ' +
      '401 Payins:SETTLEMENT_ACCOUNT_CONFIRMATION_REFUSED for a confirmation that is not the dashboard’s, older than 5 minutes, or of ' +
      'another business, merchant, currency or account; 409 Payins:SETTLEMENT_ACCOUNT_ON_HOLD when the account changed meanwhile. Audited.',
    operationId: 'confirmSettlementAccount',
  })
  @RequestExample(ConfirmSettlementAccountDto, { confirmation: 'eyJidXNpbmVzc0lkIjoi….Jx0v…' })
  @ApiParam({ name: 'currency', enum: Currency })
  @ApiOkResponse({ type: SettlementAccountResponse })
  @ApiConflictResponse({
    type: ErrorResponse,
    description:
      'Payins:SETTLEMENT_ACCOUNT_MISSING (no account in that currency) or Payins:SETTLEMENT_ACCOUNT_ON_HOLD (it changed meanwhile)',
  })
  @ApiStandardErrors()
  async confirm(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantId') merchantId: string,
    @Param('currency') currency: string,
    @Body() body: ConfirmSettlementAccountDto,
  ): Promise<SettlementAccountResponse> {
    if (!isCurrency(currency)) throw new InvalidRequestError(['currency'], 'currency must be a supported currency');
    const account = await this.accounts.confirm(caller, asMerchantId(merchantId), currency, (merchant, seen) => {
      const claims = readSettlementConfirmation(this.settings.masterKeyRing, body.confirmation, Math.floor(Date.now() / 1000));
      // Of this business, merchant, currency and account as it is now: a confirmation of another account confirms nothing here.
      const same =
        claims &&
        claims.businessId === merchant.businessId &&
        claims.merchantId === merchant.merchantId &&
        claims.currency === String(currency) &&
        claims.bankId === seen.bank.bankId &&
        claims.accountNumber === seen.accountNumber;
      return same ? claims.confirmedBy : null;
    });
    return settlementAccountRepresentation(account);
  }

  @Get()
  @ApiOperation({
    summary: "The merchant's settlement accounts",
    description: 'One per currency; a plain array.',
    operationId: 'listSettlementAccounts',
  })
  @ApiOkResponse({ type: [SettlementAccountResponse] })
  @ApiStandardErrors()
  async list(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<SettlementAccountResponse[]> {
    return (await this.accounts.list(caller, asMerchantId(merchantId))).map(settlementAccountRepresentation);
  }
}
