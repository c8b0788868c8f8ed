import { applyDecorators, Controller } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';

export const API_KEY_SCHEME = 'api-key';
export const SIGNATURE_SCHEME = 'signature';

/**
 * A controller whose routes require a signed request. The same decorator
 * documents the security scheme, so a route cannot be documented one way and
 * protected another (the guard denies by default either way).
 */
export function SignedController(path: string, tag: string): ClassDecorator {
  return applyDecorators(
    Controller(path),
    ApiTags(tag),
    // One requirement object: both headers together (two entries would mean either one).
    ApiSecurity({ [API_KEY_SCHEME]: [], [SIGNATURE_SCHEME]: [] }),
  );
}
