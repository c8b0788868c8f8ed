import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Matches, ValidateIf } from 'class-validator';
import { ACCOUNT_ANSWER, AccountFundsFlow, AccountSecret, ProviderAccountSpec, RoutedPaymentMethods } from '@pcs/gateway-accounts';
import type { FundsFlow, PaymentMethodName } from '@pcs/kernel';
import { MERCADO_PAGO } from './mercado-pago-account';

/** Connects or replaces a merchant's Mercado Pago account (contract §16). */
export class ConnectMercadoPagoAccountDto {
  @AccountSecret(
    'accessToken',
    "The merchant's access token (test credentials first). Sealed at rest; never answered.",
    'TEST-5417539263426117-112408-8c3d0f2b5e1a4d7e9f6b0a1c2d3e4f5a-123456789',
  )
  accessToken: string;

  @AccountSecret(
    'webhookSecret',
    "The secret signature of the merchant's Mercado Pago application (Webhooks): verifies notifications. Never answered.",
  )
  webhookSecret: string;

  @RoutedPaymentMethods({
    default: ['MERCADO_PAGO'],
    description: 'The payment methods collected through Mercado Pago; each must be one the merchant offers. The rest stay on the sandbox.',
  })
  paymentMethods?: PaymentMethodName[];

  @AccountFundsFlow()
  fundsFlow?: FundsFlow;

  @Matches(/^(APP_USR|TEST)-[0-9A-Za-z-]{8,120}$/, { message: 'publicKey must be a Mercado Pago public key (APP_USR-… or TEST-…)' })
  @IsString()
  @ValidateIf((_object, value) => value !== undefined)
  @ApiPropertyOptional({
    example: 'TEST-5c4e8d1a-7b2f-4a9e-8c3d-0f1e2d3c4b5a',
    description:
      "The public key of the merchant's Mercado Pago application (contract §31): the card fields of our setup page " +
      'tokenize the card with it in the payer’s browser. Public, answered in full. Omitted on a replacement: kept.',
  })
  publicKey?: string;

  @IsBoolean({ message: 'offSessionEnabled must be true or false' })
  @ValidateIf((_object, value) => value !== undefined)
  @ApiPropertyOptional({
    default: false,
    description:
      'Whether Mercado Pago has enabled automatic payments (Card on File) for the account (contract §31): saved cards are then ' +
      'charged without their security code (subscriptions, confirmed creations). False: such a charge is refused with 409 ' +
      'Payins:OFF_SESSION_NOT_AVAILABLE. Omitted on a replacement: kept.',
  })
  offSessionEnabled?: boolean;
}

export class MercadoPagoAccountResponse {
  @ApiProperty({ enum: ['MERCADO_PAGO'] }) provider: 'MERCADO_PAGO';
  @ACCOUNT_ANSWER.merchantId merchantId: string;
  @ACCOUNT_ANSWER.paymentMethods paymentMethods: string[];
  @ACCOUNT_ANSWER.fundsFlow fundsFlow: string;
  @ApiProperty({
    example: '…6789',
    description: '… and the last 4 characters of the access token (only … for a token under 12 characters)',
  })
  accessTokenHint: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The application's public key, when given (the setup page's card fields need it)",
  })
  publicKey: string | null;
  @ApiProperty({ description: 'Whether saved cards are charged without their security code (automatic payments)' })
  offSessionEnabled: boolean;
  @ACCOUNT_ANSWER.at createdAt: string;
  @ACCOUNT_ANSWER.at updatedAt: string;
}

export class MercadoPagoAccountDeletedResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ACCOUNT_ANSWER.merchantId merchantId: string;
}

/** A merchant's Mercado Pago account (contract §16): business credentials, or the merchant's own. */
export const MERCADO_PAGO_ACCOUNT_ROUTE: ProviderAccountSpec<ConnectMercadoPagoAccountDto, MercadoPagoAccountResponse> = {
  provider: MERCADO_PAGO,
  path: 'mercado-pago',
  className: 'MercadoPagoAccountController',
  body: ConnectMercadoPagoAccountDto,
  response: MercadoPagoAccountResponse,
  deleted: MercadoPagoAccountDeletedResponse,
  example: {
    accessToken: 'TEST-5417539263426117-112408-8c3d0f2b5e1a4d7e9f6b0a1c2d3e4f5a-123456789',
    webhookSecret: 'a3f9c2e1b7d54e6f8a9b0c1d2e3f4a5b',
    paymentMethods: ['VISA' as PaymentMethodName],
    fundsFlow: 'PLATFORM',
    publicKey: 'TEST-5c4e8d1a-7b2f-4a9e-8c3d-0f1e2d3c4b5a',
    offSessionEnabled: false,
  },
  doc: {
    connect: {
      summary: "Connect or replace the merchant's Mercado Pago account",
      description:
        'Payments with the listed methods (default MERCADO_PAGO) go to Mercado Pago Checkout Pro from then on; the rest stay on the sandbox. ' +
        'The access token and webhook secret are sealed at rest and never answered.',
      operationId: 'connectMercadoPagoAccount',
    },
    get: {
      summary: "The merchant's Mercado Pago account",
      description: 'Its routed payment methods and a hint of its access token; never the token or the webhook secret.',
      operationId: 'getMercadoPagoAccount',
    },
    disconnect: {
      summary: "Disconnect the merchant's Mercado Pago account",
      description: 'Its methods go back to the sandbox; payments already at Mercado Pago keep their records.',
      operationId: 'disconnectMercadoPagoAccount',
    },
  },
  secretsOf: ({ accessToken, webhookSecret }) => ({ accessToken, webhookSecret }),
  hintsOf: (view) => ({ accessTokenHint: view.accessTokenHint }),
  settingsOf: ({ publicKey, offSessionEnabled }) => ({ publicKey, offSessionEnabled }),
  answerSettingsOf: ({ settings }) => ({
    publicKey: typeof settings.publicKey === 'string' ? settings.publicKey : null,
    offSessionEnabled: settings.offSessionEnabled === true,
  }),
};
