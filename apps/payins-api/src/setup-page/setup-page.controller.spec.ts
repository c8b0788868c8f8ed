import * as crypto from 'node:crypto';
import type { RuntimeSettings } from '@pcs/config';
import { FormTokens } from '@pcs/pages';
import type { CardSetupService, PixSetupService } from '@pcs/payments';
import { recordingResponse } from '@pcs/testing';
import { cardOf, SetupPageController } from './setup-page.controller';

/**
 * The card setup page against its service: the card's parts read strictly (a BIN of six digits, the last four, an
 * expiry MM/YY not past), a post without the form's token refused with 403 and saving nothing, a valid one saved and
 * the payer sent to the merchant's returnUrl with the setup's id. test/card-setup.e2e-spec.ts runs it in a browser.
 */
const setupId = '3c2d1e0f-9a8b-4c7d-8e6f-5a4b3c2d1e0f';
const masterKey = crypto.randomBytes(32);
const cookie = 'pcs_setup=AAAAAAAAAAAAAAAAAAAAAA';
const token = new FormTokens(masterKey, 'pcs_setup', '/setup').token(setupId, 'AAAAAAAAAAAAAAAAAAAAAA');

function controllerWith() {
  const completed = { snapshot: () => ({ setupId, returnUrl: 'https://shop.example/cards?tab=1' }) };
  const setups = { page: jest.fn().mockResolvedValue({ kind: 'GONE' }), complete: jest.fn().mockResolvedValue(completed) };
  const pixSetups = { page: jest.fn().mockResolvedValue({ kind: 'GONE' }), authorise: jest.fn() };
  const settings = { secretsMasterKey: masterKey, publicBaseUrl: 'https://pay.example' } as unknown as RuntimeSettings;
  return {
    controller: new SetupPageController(setups as unknown as CardSetupService, pixSetups as unknown as PixSetupService, settings),
    setups,
    pixSetups,
  };
}

describe('cardOf', () => {
  const now = new Date('2027-03-15T00:00:00Z');
  it('reads the BIN, the last four and an expiry through the end of its month', () => {
    expect(cardOf({ bin: '450799', last4: '4242', expiry: '03/27' }, now)).toEqual({
      bin: '450799',
      last4: '4242',
      expMonth: 3,
      expYear: 2027,
    });
    expect(cardOf({ bin: '450799', last4: '4242', expiry: '02/27' }, now)).toEqual({ problems: ['badExpiry'] });
    expect(cardOf({ bin: '4507990', last4: '424', expiry: '13/29' }, now)).toEqual({ problems: ['badBin', 'badLast4', 'badExpiry'] });
    expect(cardOf({}, now)).toEqual({ problems: ['badBin', 'badLast4', 'badExpiry'] });
  });
});

describe('SetupPageController', () => {
  it('answers 404 for a path that is no setup, without asking', async () => {
    const { controller, setups } = controllerWith();
    const { res, answer } = recordingResponse();
    await controller.page('not-a-setup', 'es', undefined, res);
    expect(answer.status).toBe(404);
    expect(setups.page).not.toHaveBeenCalled();
  });

  it('sends the payer who asks to authorise Pix Automático to the processor’s journey, and says when the processor refused', async () => {
    const { controller, setups, pixSetups } = controllerWith();
    const forged = recordingResponse();
    await controller.save(setupId, { pix: 'authorise', token: 'forged' }, 'pt', cookie, forged.res);
    expect(forged.answer.status).toBe(403);
    expect(pixSetups.authorise).not.toHaveBeenCalled();
    pixSetups.authorise.mockResolvedValueOnce({ kind: 'AUTHORISE', url: 'https://sandbox.dlocal.example/pix/E-4-1' });
    const sent = recordingResponse();
    await controller.save(setupId, { pix: 'authorise', token }, 'pt', cookie, sent.res);
    expect(pixSetups.authorise).toHaveBeenCalledWith(setupId);
    expect([sent.answer.status, sent.answer.redirect]).toEqual([303, 'https://sandbox.dlocal.example/pix/E-4-1']);
    pixSetups.authorise.mockResolvedValueOnce({ kind: 'REFUSED' });
    const setup = {
      id: setupId,
      snapshot: () => ({ setupId, pixReference: null }),
    };
    setups.page.mockResolvedValueOnce({
      kind: 'PIX',
      setup,
      merchantName: 'Clube',
      mandate: { amount: 4990, frequency: 'MONTHLY', startDate: '2027-01-10', description: '' },
    });
    const refused = recordingResponse();
    await controller.save(setupId, { pix: 'authorise', token }, 'pt', cookie, refused.res);
    expect(refused.answer.status).toBe(422);
    expect(String(refused.answer.body)).toContain('Seu banco não autorizou');
    expect(String(refused.answer.body)).toContain('R$ 49,90 todo mês');
  });

  it('refuses a post without the page’s token, and saves a valid card with it, back to the merchant with the setup’s id', async () => {
    const { controller, setups } = controllerWith();
    const card = { countryProcessorId: 'cp-1', bin: '450799', last4: '4242', expiry: '12/29' };
    const refused = recordingResponse();
    await controller.save(setupId, { ...card, token: 'forged' }, 'es', cookie, refused.res);
    expect(refused.answer.status).toBe(403);
    expect(setups.complete).not.toHaveBeenCalled();
    const saved = recordingResponse();
    await controller.save(setupId, { ...card, token }, 'es', cookie, saved.res);
    expect(setups.complete).toHaveBeenCalledWith(setupId, {
      countryProcessorId: 'cp-1',
      bin: '450799',
      last4: '4242',
      expMonth: 12,
      expYear: 2029,
    });
    expect([saved.answer.status, saved.answer.redirect]).toEqual([303, `https://shop.example/cards?tab=1&setupId=${setupId}`]);
  });
});
