import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { Caller } from '@pcs/kernel';

export interface AuthenticatedRequest {
  caller?: Caller;
  /** The api-key the signature was verified with (the `api-key` header, or version 3's `keyid`) and the signing version. */
  signedBy?: { readonly apiKey: string; readonly version: 1 | 2 | 3 };
}

/** The verified caller of a signed route (set by the SignatureGuard). */
export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new Error('CurrentCaller used on a route without a verified signature');
  return caller;
});
