import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { InvalidRequestError, RefundOrigin } from '@pcs/kernel';
import type { Request } from 'express';

/** What a client may say made a refund (contract §23); PROCESSOR is ours alone to record. */
const DECLARED: readonly RefundOrigin[] = ['API', 'DASHBOARD', 'LINK'];

/**
 * The refund's origin as the request declares it in the `Refund-Origin`
 * header (the dashboard sends DASHBOARD); API when absent. It labels the
 * refund record for people reading the ledger; it grants nothing.
 */
export const RefundOriginHeader = createParamDecorator((_: unknown, context: ExecutionContext): RefundOrigin => {
  const value = context.switchToHttp().getRequest<Request>().headers['refund-origin'];
  if (value === undefined) return 'API';
  const origin = typeof value === 'string' ? value.trim().toUpperCase() : '';
  if (!(DECLARED as readonly string[]).includes(origin))
    throw new InvalidRequestError(['Refund-Origin'], `Refund-Origin must be one of ${DECLARED.join(', ')}`);
  return origin as RefundOrigin;
});

export const ApiRefundOriginHeader = () =>
  ApiHeader({
    name: 'Refund-Origin',
    required: false,
    enum: [...DECLARED],
    description: 'Who makes the refund, as the ledger will show it (`origin`): API (the default), DASHBOARD or LINK.',
  });
