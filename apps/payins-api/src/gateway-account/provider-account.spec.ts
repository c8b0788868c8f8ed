import { SIGNATURE_VERSION_REQUIRED } from '@pcs/http';
import type { GatewayAccounts } from '@pcs/gateway-accounts';
import { asBusinessId, asMerchantId, Caller, PaymentMethodName } from '@pcs/kernel';
import { ConnectDLocalAccountDto } from '@pcs/dlocal';
import { ConnectMercadoPagoAccountDto } from '@pcs/mercado-pago';
import { PROCESSOR_ACCOUNT_ROUTES } from '@pcs/processors';
import { providerAccountController } from './provider-account';

// The routes the payins API serves: one per registered processor, built from its library's spec.
const [GatewayAccountController, DLocalAccountController] = PROCESSOR_ACCOUNT_ROUTES.map((route) => providerAccountController(route));

/**
 * The merchants' processor accounts (Mercado Pago, dLocal) against the
 * gateway-accounts service: the secrets handed over sealed-to-be under the
 * provider's own names, the answer only their hints (never a secret),
 * connecting and disconnecting behind version 3 of the signature.
 * test/mercado-pago.e2e-spec.ts and test/dlocal.e2e-spec.ts run them over HTTP.
 */
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');
const at = '2026-11-27T12:00:00.000Z';

function servicesAnswering(view: Record<string, unknown>) {
  const accounts = {
    connect: jest.fn().mockResolvedValue(view),
    get: jest.fn().mockResolvedValue(view),
    disconnect: jest.fn().mockResolvedValue({ success: true }),
  };
  return { accounts, service: accounts as unknown as GatewayAccounts };
}

describe('providerAccountController over each processor’s spec (Mercado Pago, dLocal)', () => {
  it('connects Mercado Pago with its two secrets and its settings, and answers the token’s hint and the settings only', async () => {
    const { accounts, service } = servicesAnswering({
      merchantId,
      paymentMethods: ['VISA'],
      fundsFlow: 'PLATFORM',
      settings: { publicKey: 'TEST-5c4e8d1a-7b2f-4a9e', offSessionEnabled: true },
      accessTokenHint: '…6789',
      accessToken: 'TEST-secret',
      createdAt: at,
      updatedAt: at,
    });
    const controller = new GatewayAccountController(service);
    const answer = await controller.connect(caller, merchantId, {
      accessToken: 'TEST-secret',
      webhookSecret: 'whsec',
      paymentMethods: [PaymentMethodName.VISA],
      fundsFlow: 'PLATFORM',
      offSessionEnabled: true,
    } as ConnectMercadoPagoAccountDto);
    // A setting the request omits is passed as undefined: the account keeps its value.
    expect(accounts.connect).toHaveBeenCalledWith(caller, merchantId, 'MERCADO_PAGO', {
      secrets: { accessToken: 'TEST-secret', webhookSecret: 'whsec' },
      paymentMethods: [PaymentMethodName.VISA],
      fundsFlow: 'PLATFORM',
      settings: { publicKey: undefined, offSessionEnabled: true },
    });
    expect(answer).toEqual({
      provider: 'MERCADO_PAGO',
      merchantId,
      paymentMethods: ['VISA'],
      fundsFlow: 'PLATFORM',
      accessTokenHint: '…6789',
      publicKey: 'TEST-5c4e8d1a-7b2f-4a9e',
      offSessionEnabled: true,
      createdAt: at,
      updatedAt: at,
    });
    await controller.disconnect(caller, merchantId);
    expect(accounts.disconnect).toHaveBeenCalledWith(caller, merchantId, 'MERCADO_PAGO');
  });

  it('connects dLocal with its three secrets and answers their hints only', async () => {
    const { accounts, service } = servicesAnswering({
      merchantId,
      paymentMethods: ['MASTER_CARD'],
      fundsFlow: 'MERCHANT',
      settings: {},
      xLoginHint: '…sdl2',
      xTransKeyHint: '…G9',
      secretKeyHint: '…3cZ',
      createdAt: at,
      updatedAt: at,
    });
    const controller = new DLocalAccountController(service);
    const answer = await controller.connect(caller, merchantId, {
      xLogin: 'login',
      xTransKey: 'trans',
      secretKey: 'secret',
      paymentMethods: [PaymentMethodName.MASTER_CARD],
      fundsFlow: 'MERCHANT',
    } as ConnectDLocalAccountDto);
    expect(accounts.connect).toHaveBeenCalledWith(caller, merchantId, 'DLOCAL', {
      secrets: { xLogin: 'login', xTransKey: 'trans', secretKey: 'secret' },
      paymentMethods: [PaymentMethodName.MASTER_CARD],
      fundsFlow: 'MERCHANT',
      settings: { smartFieldsKey: undefined },
    });
    expect(answer).toMatchObject({
      provider: 'DLOCAL',
      xLoginHint: '…sdl2',
      xTransKeyHint: '…G9',
      secretKeyHint: '…3cZ',
      smartFieldsKey: null,
    });
    expect(JSON.stringify(answer)).not.toMatch(/login"|trans"|secret"/);
    await controller.get(caller, merchantId);
    expect(accounts.get).toHaveBeenCalledWith(caller, merchantId, 'DLOCAL');
  });

  it('gives each provider’s connection its own request schema (the validation pipe and the OpenAPI document read it) and its own routes', () => {
    // One controller shape for every processor: a generic body would be validated as a bare object without this.
    const bodyOf = (controller: { prototype: object }) =>
      (Reflect.getMetadata('design:paramtypes', controller.prototype, 'connect') as unknown[])[2];
    expect([bodyOf(GatewayAccountController), bodyOf(DLocalAccountController)]).toEqual([
      ConnectMercadoPagoAccountDto,
      ConnectDLocalAccountDto,
    ]);
    expect([Reflect.getMetadata('path', GatewayAccountController), Reflect.getMetadata('path', DLocalAccountController)]).toEqual([
      'merchant/:merchantId/gateway-account/mercado-pago',
      'merchant/:merchantId/gateway-account/dlocal',
    ]);
    expect([GatewayAccountController.name, DLocalAccountController.name]).toEqual([
      'MercadoPagoAccountController',
      'DLocalAccountController',
    ]);
  });

  it('puts connecting and disconnecting, not reading, behind version 3 of the signature', () => {
    for (const prototype of [GatewayAccountController.prototype, DLocalAccountController.prototype]) {
      const required = (route: 'connect' | 'get' | 'disconnect') => versionOf(prototype[route]);
      expect([required('connect'), required('disconnect'), required('get')]).toEqual([3, 3, undefined]);
    }
  });
});

/** The signing version a route's metadata requires (contract §29), or undefined. */
function versionOf(handler: unknown): number | undefined {
  return (Reflect.getMetadata(SIGNATURE_VERSION_REQUIRED, handler as object) as { version: number } | undefined)?.version;
}
