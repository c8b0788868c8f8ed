import { DLOCAL } from '@pcs/dlocal';
import { MERCADO_PAGO } from '@pcs/mercado-pago';
import { ConnectDLocalAccountDto, ConnectMercadoPagoAccountDto } from './gateway-account.dto';
import {
  DLocalAccountResponse,
  GatewayAccountDeletedResponse,
  MercadoPagoAccountDeletedResponse,
  MercadoPagoAccountResponse,
} from './gateway-account.responses';
import { providerAccountController } from './provider-account';

/** A merchant's Mercado Pago account (contract §16): business credentials, or the merchant's own. */
export const GatewayAccountController = providerAccountController<ConnectMercadoPagoAccountDto, MercadoPagoAccountResponse>({
  provider: MERCADO_PAGO,
  path: 'mercado-pago',
  className: 'MercadoPagoAccountController',
  body: ConnectMercadoPagoAccountDto,
  response: MercadoPagoAccountResponse,
  deleted: MercadoPagoAccountDeletedResponse,
  example: {
    accessToken: 'TEST-5417539263426117-112408-8c3d0f2b5e1a4d7e9f6b0a1c2d3e4f5a-123456789',
    webhookSecret: 'a3f9c2e1b7d54e6f8a9b0c1d2e3f4a5b',
    paymentMethods: ['VISA'],
    fundsFlow: 'PLATFORM',
  } as ConnectMercadoPagoAccountDto,
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
});

/** A merchant's dLocal account (contract §20): business credentials, or the merchant's own. */
export const DLocalAccountController = providerAccountController<ConnectDLocalAccountDto, DLocalAccountResponse>({
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
    paymentMethods: ['MASTER_CARD'],
    fundsFlow: 'PLATFORM',
  } as ConnectDLocalAccountDto,
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
});
