import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, ValidateIf } from 'class-validator';
import {
  ACCOUNT_ANSWER,
  AccountFundsFlow,
  AccountSecret,
  GatewayAccountDeletedResponse,
  ProviderAccountSpec,
  RoutedPaymentMethods,
} from '@pcs/gateway-accounts';
import type { FundsFlow, PaymentMethodName } from '@pcs/kernel';
import { DLOCAL } from './dlocal-account';

/** Connects or replaces a merchant's dLocal account (contract §20): the credentials of dLocal's dashboard, Settings > Integration. */
export class ConnectDLocalAccountDto {
  @AccountSecret('xLogin', 'The X-Login of the merchant’s dLocal account. Sealed at rest; never answered.')
  xLogin: string;

  @AccountSecret('xTransKey', 'Its X-Trans-Key. Sealed at rest; never answered.')
  xTransKey: string;

  @AccountSecret('secretKey', 'Its secret key: signs every request and verifies dLocal’s notifications. Sealed at rest; never answered.')
  secretKey: string;

  @RoutedPaymentMethods({
    description:
      'The payment methods collected through dLocal; each must be one the merchant offers and dLocal collects in one of its countries ' +
      '(docs/processors.md, "dLocal"). Default: all such methods. The rest stay where they were.',
  })
  paymentMethods?: PaymentMethodName[];

  @AccountFundsFlow()
  fundsFlow?: FundsFlow;

  @Matches(/^[\x21-\x7E]{8,256}$/, { message: 'smartFieldsKey must have 8 to 256 printable characters without spaces' })
  @IsString()
  @ValidateIf((_object, value) => value !== undefined)
  @ApiPropertyOptional({
    example: 'e5f6a7b8-c9d0-4e1f-8a2b-3c4d5e6f7a8b',
    description:
      'The API key of dLocal’s Smart Fields (dLocal.js) for the account, which its Technical Account Manager gives (contract §31): ' +
      'the card fields of our setup page tokenize the card with it in the payer’s browser. Public, answered in full. Omitted on a ' +
      'replacement: kept.',
  })
  smartFieldsKey?: string;
}

export class DLocalAccountResponse {
  @ApiProperty({ enum: ['DLOCAL'] }) provider: 'DLOCAL';
  @ACCOUNT_ANSWER.merchantId merchantId: string;
  @ACCOUNT_ANSWER.paymentMethods paymentMethods: string[];
  @ACCOUNT_ANSWER.fundsFlow fundsFlow: string;
  @ApiProperty({ example: '…a1b2', description: '… and the last 4 characters of the X-Login (only … under 12 characters)' })
  xLoginHint: string;
  @ApiProperty({ example: '…c3d4', description: '… and the last 4 characters of the X-Trans-Key (only … under 12 characters)' })
  xTransKeyHint: string;
  @ApiProperty({ example: '…e5f6', description: '… and the last 4 characters of the secret key (only … under 12 characters)' })
  secretKeyHint: string;
  @ApiProperty({ type: String, nullable: true, description: 'The Smart Fields API key, when given (the setup page’s card fields need it)' })
  smartFieldsKey: string | null;
  @ACCOUNT_ANSWER.at createdAt: string;
  @ACCOUNT_ANSWER.at updatedAt: string;
}

/** A merchant's dLocal account (contract §20): business credentials, or the merchant's own. */
export const DLOCAL_ACCOUNT_ROUTE: ProviderAccountSpec<ConnectDLocalAccountDto, DLocalAccountResponse> = {
  provider: DLOCAL,
  path: 'dlocal',
  className: 'DLocalAccountController',
  body: ConnectDLocalAccountDto,
  response: DLocalAccountResponse,
  deleted: GatewayAccountDeletedResponse,
  example: {
    xLogin: 'sak223k2wdksdl2',
    xTransKey: 'fm12O7G9',
    secretKey: '1LgHZ0YVHp2cE4pk9PYMMY0qsFWnTq3cZ',
    paymentMethods: ['MASTER_CARD' as PaymentMethodName],
    fundsFlow: 'PLATFORM',
  },
  doc: {
    connect: {
      summary: "Connect or replace the merchant's dLocal account",
      description:
        'Payments with the listed methods go to dLocal from then on (PIX, cards, bank transfers and cash vouchers, where dLocal collects them); ' +
        'a method already routed to another processor is refused. The X-Login, X-Trans-Key and secret key are sealed at rest and never answered.',
      operationId: 'connectDLocalAccount',
    },
    get: {
      summary: "The merchant's dLocal account",
      description: 'Its routed payment methods and a hint of each credential; never a credential.',
      operationId: 'getDLocalAccount',
    },
    disconnect: {
      summary: "Disconnect the merchant's dLocal account",
      description: 'Its methods go back to the catalog’s gateway (the sandbox); payments already at dLocal keep their records.',
      operationId: 'disconnectDLocalAccount',
    },
  },
  secretsOf: ({ xLogin, xTransKey, secretKey }) => ({ xLogin, xTransKey, secretKey }),
  hintsOf: (view) => ({ xLoginHint: view.xLoginHint, xTransKeyHint: view.xTransKeyHint, secretKeyHint: view.secretKeyHint }),
  settingsOf: ({ smartFieldsKey }) => ({ smartFieldsKey }),
  answerSettingsOf: ({ settings }) => ({ smartFieldsKey: typeof settings.smartFieldsKey === 'string' ? settings.smartFieldsKey : null }),
};
