import type { Request } from 'express';
import * as crypto from 'node:crypto';
import type { RuntimeSettings } from '@pcs/config';
import { FormTokens } from '@pcs/pages';
import type { B2bCheckoutService } from '@pcs/payments';
import { recordingResponse } from '@pcs/testing';
import { CheckoutController } from './checkout.controller';

/**
 * The hosted checkout against its service: a method chosen without the
 * page's form token is a 403 that starts nothing; with it, the payer goes to
 * the gateway (303); back from the gateway they are sent on to the merchant
 * (303) or shown where things stand; an unknown reference is a 404 page,
 * never a redirect. test/b2b-checkout.e2e-spec.ts runs the pages in a browser.
 */
const reference = 'ck_4b3a2918';
const masterKey = crypto.randomBytes(32);
const tokenFor = (cookie: string) => new FormTokens(masterKey, 'pcs_checkout', '/checkout').token(reference, cookie.split('=')[1]);

function controllerWith() {
  const checkout = {
    page: jest.fn().mockResolvedValue({ kind: 'GONE' }),
    start: jest.fn().mockResolvedValue({ gatewayUrl: 'https://gateway.example/session/9' }),
    afterGateway: jest.fn(),
    returnToMerchant: jest.fn(),
  };
  const settings = { secretsMasterKey: masterKey, publicBaseUrl: 'https://b2b.example' } as unknown as RuntimeSettings;
  return { controller: new CheckoutController(checkout as unknown as B2bCheckoutService, settings), checkout };
}

async function cookieOf(controller: CheckoutController): Promise<string> {
  const { res, answer } = recordingResponse();
  await controller.page(reference, 'es', undefined, res);
  expect(answer.status).toBe(404);
  return `pcs_checkout=${answer.cookies.pcs_checkout}`;
}

/** The payer's request as the controller reads it: only its client address (the card-testing guard's, contract §30). */
const PAYER_REQUEST = { ip: '198.51.100.7' } as Request;

describe('CheckoutController', () => {
  it('refuses a choice without the page’s token, or with another reference’s, and starts nothing', async () => {
    const { controller, checkout } = controllerWith();
    const cookie = await cookieOf(controller);
    const other = new FormTokens(masterKey, 'pcs_checkout', '/checkout').token('ck_other', cookie.split('=')[1]);
    for (const token of [undefined, other, tokenFor('pcs_checkout=another-nonce')]) {
      const { res, answer } = recordingResponse();
      await controller.choose(reference, { token, countryProcessorId: 'cp-1' }, 'en', cookie, PAYER_REQUEST, res);
      expect(answer.status).toBe(403);
    }
    expect(checkout.start).not.toHaveBeenCalled();
  });

  it('sends the payer to the gateway with the page’s token, and back to the page when the intent changed meanwhile', async () => {
    const { controller, checkout } = controllerWith();
    const cookie = await cookieOf(controller);
    const first = recordingResponse();
    await controller.choose(reference, { token: tokenFor(cookie), countryProcessorId: 'cp-1' }, 'es', cookie, PAYER_REQUEST, first.res);
    expect(checkout.start).toHaveBeenCalledWith(reference, 'cp-1', '198.51.100.7', undefined);
    expect([first.answer.status, first.answer.redirect]).toEqual([303, 'https://gateway.example/session/9']);
    checkout.start.mockRejectedValue(new Error('PAYMENT_INTENT_INVALID_STATE'));
    const again = recordingResponse();
    await controller.choose(reference, { token: tokenFor(cookie), countryProcessorId: 'cp-1' }, 'es', cookie, PAYER_REQUEST, again.res);
    expect([again.answer.status, again.answer.redirect]).toEqual([303, `/checkout/${reference}`]);
  });

  it('sends the payer on to the merchant after the gateway, or answers 404 for a reference it does not know', async () => {
    const { controller, checkout } = controllerWith();
    checkout.afterGateway.mockResolvedValueOnce({ redirect: 'https://shop.example/return?status=SUCCEEDED&signature=x' });
    const sent = recordingResponse();
    await controller.returned(reference, 'es', undefined, sent.res);
    expect([sent.answer.status, sent.answer.redirect, sent.answer.headers['Cache-Control']]).toEqual([
      303,
      'https://shop.example/return?status=SUCCEEDED&signature=x',
      'no-store',
    ]);
    checkout.afterGateway.mockResolvedValueOnce(null);
    const unknown = recordingResponse();
    await controller.returned('ck_unknown', 'es', undefined, unknown.res);
    expect([unknown.answer.status, unknown.answer.redirect]).toEqual([404, null]);
    checkout.returnToMerchant.mockResolvedValueOnce(null);
    const back = recordingResponse();
    await controller.back('ck_unknown', 'en', back.res);
    expect([back.answer.status, back.answer.redirect]).toEqual([404, null]);
  });
});
