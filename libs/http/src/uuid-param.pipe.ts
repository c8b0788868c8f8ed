import { ArgumentMetadata, Injectable, Param, PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { InvalidRequestError } from '@pcs/kernel';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id in the path is a 400 naming the parameter (contract §2). */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (typeof value !== 'string' || !UUID.test(value)) {
      const name = metadata.data ?? 'id';
      throw new InvalidRequestError([name], `${name} must be a UUID`);
    }
    return value.toLowerCase();
  }
}

/**
 * A path parameter that is an id: checked by UuidParamPipe, and shown in the
 * OpenAPI document as `format: uuid` (so that generated requests use ids).
 */
export function UuidParam(name: string): ParameterDecorator {
  return (target, key, index) => {
    Param(name, UuidParamPipe)(target, key, index);
    if (key === undefined) return;
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (descriptor) ApiParam({ name, type: 'string', format: 'uuid' })(target, key, descriptor);
  };
}
