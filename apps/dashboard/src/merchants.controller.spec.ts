import type { DashboardIdentity, DashboardUser } from '@pcs/dashboard-identity';
import { recordingResponse } from '@pcs/testing';
import { MerchantsController } from './merchants.controller';
import { PayinsApiError } from './payins-api';
import type { PayinsApi } from './payins-api';
import { PageError, Redirect } from './web';
import type { DashboardRequest } from './web';

/**
 * Merchants' configuration form against the payins API and the audit: only a
 * merchant of the person's own scope is configured (another's id is a 404
 * that asks nothing), the form read into the API's configuration (addresses
 * split and bounded, checkboxes as booleans), a refusal shown again (400) and
 * audited with its errorId, a success audited and redirected.
 * test/dashboard-areas.e2e-spec.ts runs the form in a browser.
 */
const admin: DashboardUser = { userId: 'u-1', businessId: 'b-1', merchantId: null, email: 'ana@example.uy', role: 'admin' };
const mine = '8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f';
const theirs = '0b7c6e2a-5d4f-4e3b-9a1c-2f8e7d6c5b4a';
const request = { dashboard: { user: admin, csrfToken: 'csrf' }, ip: '203.0.113.7', header: () => 'en' } as unknown as DashboardRequest;

function controllerWith(configure: () => Promise<void>) {
  const api = {
    merchants: jest.fn().mockResolvedValue([{ merchantId: mine, merchantName: 'Tienda Pocitos', status: 'ACTIVE' }]),
    configurationOf: jest.fn().mockResolvedValue(null),
    configure: jest.fn(configure),
    processorsHealth: jest.fn().mockResolvedValue([]),
    cardTestingBlocks: jest.fn().mockResolvedValue({
      settings: {
        enabled: true,
        maxDeclinesPerCard: 3,
        maxDeclinesPerAddress: 10,
        maxAttemptsPerAddress: 30,
        windowMinutes: 60,
        blockMinutes: 60,
      },
      blocks: [
        {
          blockId: '5f0c9a1e-2b3d-4c5e-8f7a-9b0c1d2e3f4a',
          merchantId: mine,
          scope: 'ADDRESS',
          reason: 'DECLINES_PER_ADDRESS',
          count: 10,
          hint: '203.0.113.x',
          page: 'LINK',
          saleId: null,
          startedAt: '2026-11-29T12:00:00.000Z',
          until: '2099-11-29T13:00:00.000Z',
          active: true,
        },
      ],
    }),
  };
  const identity = { audit: jest.fn().mockResolvedValue(undefined) };
  return { controller: new MerchantsController(api as unknown as PayinsApi, identity as unknown as DashboardIdentity), api, identity };
}

const form = {
  shortName: ' cafe-centro ',
  notificationEmails: 'ops@cafe.example.uy; caja@cafe.example.uy,, ventas@cafe.example.uy',
  paymentSuccessNotification: 'on',
  fastPaymentsEnabled: 'yes',
};

describe('MerchantsController', () => {
  it('lists each merchant’s card-testing blocks (contract §30): what, why, until when, with the guard’s limits', async () => {
    const { controller, api } = controllerWith(() => Promise.resolve());
    const { res, answer } = recordingResponse();
    await controller.show(request, res, undefined);
    expect(api.cardTestingBlocks).toHaveBeenCalledWith(mine);
    const page = String(answer.body);
    expect(page).toContain(
      'Limits: 3 declines per card, 10 per address or link, 30 attempts per address within 60 min; blocked for 60 min.',
    );
    expect(page).toMatch(
      /<tr data-block="5f0c9a1e-[^"]+" data-scope="ADDRESS" data-active="true"><td>Address <code>203\.0\.113\.x<\/code><\/td><td>10 declines from the address<\/td>/,
    );
  });

  it('configures one of the person’s merchants only: another’s id is a 404 that asks nothing', async () => {
    const { controller, api, identity } = controllerWith(() => Promise.resolve());
    for (const id of [theirs, 'not-a-uuid']) {
      await expect(controller.configure(request, recordingResponse().res, id, form)).rejects.toMatchObject({ status: 404 });
    }
    expect(api.configure).not.toHaveBeenCalled();
    expect(identity.audit).not.toHaveBeenCalled();
    await expect(controller.configure(request, recordingResponse().res, theirs, form)).rejects.toBeInstanceOf(PageError);
  });

  it('sends the form as the API’s configuration, audits it, and redirects to the list', async () => {
    const { controller, api, identity } = controllerWith(() => Promise.resolve());
    const sent = await controller.configure(request, recordingResponse().res, mine, form).catch((thrown: unknown) => thrown);
    expect(sent).toBeInstanceOf(Redirect);
    expect((sent as Redirect).location).toBe('/merchants?done=configured');
    const configuration = {
      shortName: 'cafe-centro',
      notificationEmails: ['ops@cafe.example.uy', 'caja@cafe.example.uy', 'ventas@cafe.example.uy'],
      paymentSuccessNotification: true,
      paymentErrorNotification: false,
      fastPaymentsEnabled: false,
      installments: {},
    };
    expect(api.configure).toHaveBeenCalledWith(mine, configuration);
    expect(identity.audit).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'merchant:configure', target: mine, result: 'succeeded', detail: configuration }),
    );
  });

  it('sends the routing rules the form gives as JSON, and refuses what is not a list of rules on the page: 400, audited, the API not asked', async () => {
    const { controller, api, identity } = controllerWith(() => Promise.resolve());
    const rules = [{ paymentMethod: 'VISA', processors: ['DLOCAL', 'MERCADO_PAGO'] }];
    await controller.configure(request, recordingResponse().res, mine, { ...form, routing: JSON.stringify(rules) }).catch(() => undefined);
    expect(api.configure).toHaveBeenCalledWith(mine, expect.objectContaining({ routing: rules }));
    api.configure.mockClear();
    for (const routing of ['{', '{"paymentMethod":"VISA"}', '[1]', '[null]', '[[]]']) {
      const { res, answer } = recordingResponse();
      await controller.configure(request, res, mine, { ...form, routing });
      expect(answer.status).toBe(400);
      expect(answer.body).toContain('The routing rules must be a JSON list of rules.');
    }
    expect(api.configure).not.toHaveBeenCalled();
    expect(identity.audit).toHaveBeenCalledWith(expect.objectContaining({ result: 'refused', detail: { field: 'routing' } }));
  });

  it('sends the installments of each country the form fills (one installment, or empty, is none), as numbers in the country’s currency', async () => {
    const { controller, api } = controllerWith(() => Promise.resolve());
    const installments = {
      maxInstallmentsURY: '1',
      interestFreeUpToURY: '0',
      maxInstallmentsARG: '12',
      interestFreeUpToARG: '6',
      minInstallmentAmountARG: ' 5000.50 ',
      maxInstallmentsBRA: '10',
    };
    await controller.configure(request, recordingResponse().res, mine, { ...form, ...installments }).catch(() => undefined);
    expect(api.configure).toHaveBeenCalledWith(
      mine,
      expect.objectContaining({
        installments: {
          ARG: { maxInstallments: 12, interestFreeUpTo: 6, minInstallmentAmount: { ARS: 5000.5 } },
          BRA: { maxInstallments: 10, interestFreeUpTo: 0 },
        },
      }),
    );
  });

  it('refuses installments that are not whole numbers, or a least installment that is not an amount, on the page: 400, audited, the API not asked', async () => {
    for (const wrong of [
      { maxInstallmentsBRA: 'doce' },
      { maxInstallmentsBRA: '6', interestFreeUpToBRA: '-1' },
      { minInstallmentAmountURY: '1e3' },
    ]) {
      const { controller, api, identity } = controllerWith(() => Promise.resolve());
      const { res, answer } = recordingResponse();
      await controller.configure(request, res, mine, { ...form, ...wrong });
      expect(answer.status).toBe(400);
      expect(String(answer.body)).toContain(Object.keys(wrong)[0].slice(-3));
      expect(api.configure).not.toHaveBeenCalled();
      expect(identity.audit).toHaveBeenCalledWith(expect.objectContaining({ action: 'merchant:configure', result: 'refused' }));
    }
  });

  it('shows a refusal again as a 400 and audits it with the API’s errorId', async () => {
    const refusal = new PayinsApiError(400, {
      errorId: 'Payins:SHORT_NAME_TAKEN',
      message: 'shortName is taken',
      showMessage: { EN: 'That short name is taken.', ES: 'Ese nombre corto ya está en uso.' },
      needUpdate: false,
    } as never);
    const { controller, identity } = controllerWith(() => Promise.reject(refusal));
    const { res, answer } = recordingResponse();
    await controller.configure(request, res, mine, form);
    expect(answer.status).toBe(400);
    expect(identity.audit).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'merchant:configure', result: 'refused', detail: { errorId: 'Payins:SHORT_NAME_TAKEN' } }),
    );
  });
});
