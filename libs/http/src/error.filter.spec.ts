import { ArgumentsHost, Logger, NotFoundException } from '@nestjs/common';
import { DomainError } from '@pcs/kernel';
import { ErrorFilter } from './error.filter';

function hostCapturing(): { host: ArgumentsHost; sent: { status?: number; body?: unknown; type?: string } } {
  const sent: { status?: number; body?: unknown; type?: string } = {};
  const response = {
    headersSent: false,
    status(code: number) {
      sent.status = code;
      return this;
    },
    type(value: string) {
      sent.type = value;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
      return this;
    },
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => response, getRequest: () => ({ id: 'req-1', method: 'GET', path: '/x' }) }),
  } as unknown as ArgumentsHost;
  return { host, sent };
}

describe('ErrorFilter', () => {
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));

  it('answers an unexpected failure with a 500 that shows no internals', () => {
    const { host, sent } = hostCapturing();
    new ErrorFilter('Payins').catch(new Error('duplicate key value violates unique constraint "api_credential" secret=sk_live'), host);
    expect(sent.status).toBe(500);
    expect(sent.type).toBe('application/json');
    expect(sent.body).toEqual({
      message: 'Something went wrong on our side. Please try again later.',
      showMessage: { EN: 'Something went wrong on our side. Please try again later.', ES: expect.stringContaining('Algo salió mal') },
      needUpdate: false,
      errorId: 'Payins:INTERNAL_ERROR',
    });
    expect(JSON.stringify(sent.body)).not.toMatch(/constraint|sk_live|stack/);
  });

  it('gives domain errors the area of the answering API unless their area is fixed', () => {
    const payins = hostCapturing();
    new ErrorFilter('Payins').catch(new DomainError('MERCHANT_NOT_FOUND'), payins.host);
    expect(payins.sent).toMatchObject({ status: 404, body: { errorId: 'Payins:MERCHANT_NOT_FOUND' } });
    const b2b = hostCapturing();
    new ErrorFilter('B2B').catch(new DomainError('UNAUTHORIZED'), b2b.host);
    expect(b2b.sent).toMatchObject({ status: 401, body: { errorId: 'Auth:UNAUTHORIZED' } });
  });

  it("answers Nest's own not-found with the route error", () => {
    const { host, sent } = hostCapturing();
    new ErrorFilter('B2B').catch(new NotFoundException('Cannot GET /x'), host);
    expect(sent).toMatchObject({ status: 404, body: { errorId: 'B2B:ROUTE_NOT_FOUND' } });
  });
});
