import type { Request } from 'express';
import * as crypto from 'node:crypto';
import type { RuntimeSettings } from '@pcs/config';
import { FormTokens } from '@pcs/pages';
import type { LinkCheckoutService } from '@pcs/payments';
import { recordingResponse } from '@pcs/testing';
import { PayPageController } from './pay-page.controller';

/**
 * The link's pay page against its service: a path that is not a link's id is
 * a 404 page without asking anything; a method chosen without the form's
 * token (or with another page's) is a 403 and starts nothing; with it, the
 * payer goes to the gateway (303), and a link used or expired meanwhile sends
 * them back to the page. The service is a jest stand-in; test/pay-page.e2e-spec.ts
 * runs the pages in a real browser.
 */
const linkId = '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d';

const masterKey = crypto.randomBytes(32);
/** The form token a live page of the link hands out with the nonce of its cookie (the same key and cookie as the controller's). */
const tokenFor = (cookie: string) => new FormTokens(masterKey, 'pcs_pay', '/pay').token(linkId, cookie.split('=')[1]);

function controllerWith() {
  const checkout = {
    page: jest.fn().mockResolvedValue({ kind: 'GONE' }),
    start: jest.fn().mockResolvedValue({ gatewayUrl: 'https://gateway.example/session/1' }),
  };
  const settings = { secretsMasterKey: masterKey, publicBaseUrl: 'https://pay.example' } as unknown as RuntimeSettings;
  return { controller: new PayPageController(checkout as unknown as LinkCheckoutService, settings), checkout };
}

/** The cookie the page sets: its form nonce. */
async function cookieOf(controller: PayPageController): Promise<string> {
  const { res, answer } = recordingResponse();
  await controller.page(linkId, 'es', undefined, res);
  const [[name, nonce]] = Object.entries(answer.cookies);
  expect(name).toBe('pcs_pay');
  return `${name}=${nonce}`;
}

/** The payer's request as the controller reads it: only its client address (the card-testing guard's, contract §30). */
const PAYER_REQUEST = { ip: '198.51.100.7' } as Request;

describe('PayPageController', () => {
  it('answers a path that is not a link id with the 404 page, asking nothing', async () => {
    const { controller, checkout } = controllerWith();
    const { res, answer } = recordingResponse();
    await controller.page('not-a-link', 'en', undefined, res);
    expect(answer.status).toBe(404);
    expect(checkout.page).not.toHaveBeenCalled();
  });

  it('refuses a choice without the page’s form token, or with another page’s, and starts nothing', async () => {
    const { controller, checkout } = controllerWith();
    const cookie = await cookieOf(controller);
    const otherLink = new FormTokens(masterKey, 'pcs_pay', '/pay').token('0a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d', cookie.split('=')[1]);
    for (const token of [undefined, 'x'.repeat(43), crypto.randomBytes(32).toString('base64url'), otherLink]) {
      const { res, answer } = recordingResponse();
      await controller.choose(linkId, { token, countryProcessorId: 'cp-1' }, 'es', cookie, PAYER_REQUEST, res);
      expect(answer.status).toBe(403);
    }
    const { res, answer } = recordingResponse();
    await controller.choose('not-a-link', { countryProcessorId: 'cp-1' }, 'es', cookie, PAYER_REQUEST, res);
    expect(answer.status).toBe(403);
    expect(checkout.start).not.toHaveBeenCalled();
  });

  it('sends the payer to the gateway with the page’s own token, the page as where they come back', async () => {
    const { controller, checkout } = controllerWith();
    const cookie = await cookieOf(controller);
    const { res, answer } = recordingResponse();
    await controller.choose(linkId, { token: tokenFor(cookie), countryProcessorId: 'cp-1' }, 'es', cookie, PAYER_REQUEST, res);
    expect(checkout.start).toHaveBeenCalledWith(linkId, 'cp-1', `https://pay.example/pay/${linkId}`, '198.51.100.7', undefined);
    expect([answer.status, answer.redirect, answer.headers['Cache-Control']]).toEqual([
      303,
      'https://gateway.example/session/1',
      'no-store',
    ]);
  });

  it('sends the payer back to the page when the link was used or expired meanwhile', async () => {
    const { controller, checkout } = controllerWith();
    checkout.start.mockRejectedValue(new Error('LINK_ALREADY_USED'));
    const cookie = await cookieOf(controller);
    const { res, answer } = recordingResponse();
    await controller.choose(linkId, { token: tokenFor(cookie), countryProcessorId: 'cp-1' }, 'es', cookie, PAYER_REQUEST, res);
    expect([answer.status, answer.redirect]).toEqual([303, `/pay/${linkId}`]);
  });
});
