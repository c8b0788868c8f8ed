import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const SIGNATURE_V2_REQUIRED = 'pcs:signature-v2-required';

/** Which of a route's mutating requests require version 2: all of them, or those whose parsed body this says yes to. */
export type SignatureV2Rule = true | ((body: unknown) => boolean);

/**
 * Money and secrets beyond the specification (contract §27): the route's
 * mutating requests (POST, PUT, PATCH, DELETE) refuse a version-1
 * signature with 401 Auth:SIGNATURE_VERSION_REQUIRED, since a version-1
 * signature covers the body only (the signature of `{}` would be a
 * permanent bearer token for a bodyless change). Its reads keep version 1.
 * `when`: only the requests whose body it says yes to (PATCH /merchant with
 * `account.settlementBank`). The OpenAPI document says so with
 * `x-signature-version: 2` (and `x-signature-version-when`).
 */
export function SignatureV2Required(when?: { readonly test: (body: unknown) => boolean; readonly description: string }): MethodDecorator {
  return when
    ? applyDecorators(
        SetMetadata(SIGNATURE_V2_REQUIRED, when.test),
        ApiExtension('x-signature-version', 2),
        ApiExtension('x-signature-version-when', when.description),
      )
    : applyDecorators(SetMetadata(SIGNATURE_V2_REQUIRED, true), ApiExtension('x-signature-version', 2));
}
