import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorResponse } from './error.response';

/** The error responses every signed operation can give. */
export function ApiStandardErrors(options: { notFound?: boolean } = {}): MethodDecorator {
  const decorators = [
    ApiBadRequestResponse({ type: ErrorResponse, description: 'Invalid input (Validation:INVALID_REQUEST or an operation code)' }),
    ApiUnauthorizedResponse({ type: ErrorResponse, description: 'Auth:UNAUTHORIZED' }),
  ];
  if (options.notFound !== false)
    decorators.push(ApiNotFoundResponse({ type: ErrorResponse, description: "Unknown, deleted or another tenant's resource" }));
  return applyDecorators(...decorators);
}
