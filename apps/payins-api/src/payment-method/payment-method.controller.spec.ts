import type { BusinessService } from '@pcs/businesses';
import type { RuntimeSettings } from '@pcs/config';
import { asBusinessId, asMerchantId, Caller } from '@pcs/kernel';
import { PaymentMethodController } from './payment-method.controller';

/** The business's payment methods against its service: asked for the caller's business (whatever merchant it names), each with its image's public URL. */
describe('PaymentMethodController', () => {
  it('lists the caller business’s methods with their images under the public base URL', async () => {
    const availablePaymentMethods = jest.fn().mockResolvedValue([
      {
        paymentMethodId: 'pm-1',
        name: 'VISA',
        imagePath: '/assets/payment-methods/visa.svg',
        mayHaveAsyncPayments: false,
        mayHavePaymentsLimits: true,
        supportsReserve: true,
      },
    ]);
    const controller = new PaymentMethodController(
      { availablePaymentMethods } as unknown as BusinessService,
      {
        publicBaseUrl: 'https://api.example',
      } as RuntimeSettings,
    );
    const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: asMerchantId('m-1') };
    expect(await controller.list(caller)).toEqual([
      {
        paymentMethodId: 'pm-1',
        paymentMethodName: 'VISA',
        imageUrl: 'https://api.example/assets/payment-methods/visa.svg',
        mayHaveAsyncPayments: false,
        mayHavePaymentsLimits: true,
        supportsReserve: true,
      },
    ]);
    expect(availablePaymentMethods).toHaveBeenCalledWith('b-1');
  });
});
