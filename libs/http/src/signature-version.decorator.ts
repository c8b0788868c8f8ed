import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const SIGNATURE_VERSION_REQUIRED = 'pcs:signature-version-required';

/** The version a route's mutating requests need: always, or when their parsed body says so. */
export interface SignatureVersionRule {
  readonly version: 2 | 3;
  readonly when?: (body: unknown) => boolean;
}

/**
 * Money, secrets, refunds and where events go (contracts §27 and §29): the
 * route's mutating requests (POST, PUT, PATCH, DELETE) refuse a signature of
 * a lower version with 401 Auth:SIGNATURE_VERSION_REQUIRED, once the
 * credential and its signature have verified. Version 3 (RFC 9421) binds the
 * method, the path, the query and the body; versions 1 and 2 bind the body
 * only, so their signature of a body-less change is that of any GET. Every
 * DELETE takes version 3 whatever its route says (the guard's rule). `when`:
 * only the requests whose body it says yes to (PATCH /merchant with
 * `account.settlementBank`). The OpenAPI document says so with
 * `x-signature-version` (and `x-signature-version-when`).
 */
export function SignatureVersionRequired(
  version: 2 | 3,
  when?: { readonly test: (body: unknown) => boolean; readonly description: string },
): MethodDecorator {
  const rule: SignatureVersionRule = { version, ...(when ? { when: when.test } : {}) };
  return when
    ? applyDecorators(
        SetMetadata(SIGNATURE_VERSION_REQUIRED, rule),
        ApiExtension('x-signature-version', version),
        ApiExtension('x-signature-version-when', when.description),
      )
    : applyDecorators(SetMetadata(SIGNATURE_VERSION_REQUIRED, rule), ApiExtension('x-signature-version', version));
}
