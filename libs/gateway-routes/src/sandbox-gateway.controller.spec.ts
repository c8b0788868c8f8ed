import type { DisputeReports } from '@pcs/disputes';
import type { SandboxDesk, SandboxPageView } from '@pcs/gateways';
import { DomainError, InvalidRequestError } from '@pcs/kernel';
import type { CardTestingGuard } from '@pcs/payments';
import { recordingResponse } from '@pcs/testing';
import type { Request } from 'express';
import { SandboxGatewayController } from './sandbox-gateway.controller';

const view = { reference: 'sbx-1', returnUrl: 'https://pay.example/pay/link-1' } as unknown as SandboxPageView;
const payer = { ip: '203.0.113.9' } as Request;

function controllerWith(guardRefuses = false) {
  const desk = { decide: jest.fn().mockResolvedValue(view), page: jest.fn().mockResolvedValue(view) };
  const guard = {
    atSandboxPage: jest.fn(() =>
      guardRefuses ? Promise.reject(new DomainError('TOO_MANY_ATTEMPTS', 'blocked', { retryAfter: 60 })) : Promise.resolve(),
    ),
  };
  const controller = new SandboxGatewayController(
    desk as unknown as SandboxDesk,
    {} as DisputeReports,
    guard as unknown as CardTestingGuard,
  );
  return { controller, desk, guard };
}

/**
 * The sandbox's payer page (contracts §10, §30): a decision only among its buttons; the test card
 * given as its first six and last four digits and expiry, all three or none, shown to the
 * card-testing guard before anything is decided; a refusal of the guard decides nothing.
 * test/sandbox-page.e2e-spec.ts and test/card-testing.e2e-spec.ts use the page over HTTP.
 */
describe('SandboxGatewayController', () => {
  it('decides with the test card shown to the card-testing guard first, then goes back where the attempt came from', async () => {
    const { controller, desk, guard } = controllerWith();
    const { res, answer } = recordingResponse();
    await controller.decide('sbx-1', { outcome: 'reject', cardBin: '450995', cardLast4: '3704', cardExpiry: '11/30' }, 'es', payer, res);
    expect(guard.atSandboxPage).toHaveBeenCalledWith('sbx-1', '203.0.113.9', { bin: '450995', last4: '3704', expiry: '11/30' });
    expect(desk.decide).toHaveBeenCalledWith('sbx-1', 'reject', undefined);
    expect([answer.status, answer.redirect]).toEqual([303, view.returnUrl]);
    // No card: the guard still sees the address; a pending answer is no attempt's end and is not shown to it.
    await controller.decide(
      'sbx-1',
      { outcome: 'approve', cardBin: '', cardLast4: '', cardExpiry: '' },
      'es',
      payer,
      recordingResponse().res,
    );
    expect(guard.atSandboxPage).toHaveBeenLastCalledWith('sbx-1', '203.0.113.9', null);
    await controller.decide('sbx-1', { outcome: 'pending' }, 'es', payer, recordingResponse().res);
    expect(guard.atSandboxPage).toHaveBeenCalledTimes(2);
  });

  it('refuses a partial or malformed test card, and any whole card number, before the guard or the desk is asked', async () => {
    const { controller, desk, guard } = controllerWith();
    for (const card of [
      { cardBin: '450995' },
      { cardBin: '4509953566233704', cardLast4: '3704', cardExpiry: '11/30' },
      { cardBin: '45099', cardLast4: '3704', cardExpiry: '11/30' },
      { cardBin: '450995', cardLast4: '370', cardExpiry: '11/30' },
      { cardBin: '450995', cardLast4: '3704', cardExpiry: '13/30' },
      { cardBin: '450995', cardLast4: '3704', cardExpiry: '1130' },
      { cardBin: ['450995'], cardLast4: '3704', cardExpiry: '11/30' },
      { cardBin: 45099500, cardLast4: '3704', cardExpiry: '11/30' },
    ]) {
      const refused = await controller
        .decide('sbx-1', { outcome: 'reject', ...card }, 'es', payer, recordingResponse().res)
        .catch((e: unknown) => e);
      expect([card, refused instanceof InvalidRequestError]).toEqual([card, true]);
    }
    expect(guard.atSandboxPage).not.toHaveBeenCalled();
    expect(desk.decide).not.toHaveBeenCalled();
  });

  it('decides nothing when the card-testing guard refuses (its 429 goes to the error filter)', async () => {
    const { controller, desk } = controllerWith(true);
    await expect(
      controller.decide(
        'sbx-1',
        { outcome: 'reject', cardBin: '450995', cardLast4: '3704', cardExpiry: '11/30' },
        'en',
        payer,
        recordingResponse().res,
      ),
    ).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
    expect(desk.decide).not.toHaveBeenCalled();
  });

  it('refuses an outcome that is not one of its buttons', async () => {
    const { controller, desk } = controllerWith();
    for (const outcome of [undefined, 'steal', ['approve'], 1])
      await expect(controller.decide('sbx-1', { outcome }, 'es', payer, recordingResponse().res)).rejects.toBeInstanceOf(
        InvalidRequestError,
      );
    expect(desk.decide).not.toHaveBeenCalled();
  });
});
