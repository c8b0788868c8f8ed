import { applyDecorators, Controller, SetMetadata } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { CredentialScope } from '@pcs/kernel';

export const API_KEY_SCHEME = 'api-key';
export const SIGNATURE_SCHEME = 'signature';

/** The scope a restricted credential needs for a controller's changes (contract §29); reads need `read`. */
export const CREDENTIAL_SCOPE = 'pcs:credential-scope';

/**
 * A controller whose routes require a signed request. The same decorator
 * documents the security scheme, so a route cannot be documented one way and
 * protected another (the guard denies by default either way). `writeScope`
 * is what a restricted credential needs for its POST, PUT, PATCH and DELETE
 * routes (contract §29); a controller of reads alone names none, and a
 * change without one is refused to every restricted credential.
 */
export function SignedController(path: string, tag: string, writeScope?: CredentialScope): ClassDecorator {
  return applyDecorators(
    Controller(path),
    ApiTags(tag),
    // One requirement object: both headers together (two entries would mean either one).
    ApiSecurity({ [API_KEY_SCHEME]: [], [SIGNATURE_SCHEME]: [] }),
    ...(writeScope ? [SetMetadata(CREDENTIAL_SCOPE, writeScope)] : []),
  );
}
