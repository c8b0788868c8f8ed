import { applyDecorators } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import { IsObject, ValidateIf, ValidateNested } from 'class-validator';

/**
 * An optional field: absent (undefined) skips its checks, but JSON `null` is a
 * value like any other and meets them (class-validator's IsOptional lets null
 * through, and with it a null into every service). No request field of these
 * APIs is nullable; one that becomes so says it where it is declared.
 */
export function Optional(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}

/**
 * A nested object of a known shape. Arrays are refused (ValidateNested alone
 * would validate each element and let `[]` or `[{}]` stand for the object).
 */
export function NestedObject(type: () => new () => object): PropertyDecorator {
  return applyDecorators(IsObject(), ValidateNested(), Type(type));
}

/** A list of nested objects of a known shape, each an object (not an array). */
export function NestedObjects(type: () => new () => object): PropertyDecorator {
  return applyDecorators(IsObject({ each: true }), ValidateNested({ each: true }), Type(type));
}

/**
 * A whole number in a query string, read strictly (contract §24): only
 * decimal digits become a number (`0x10`, `1e2`, ` 1`, `true` stay strings
 * and fail the field's number checks). `Number()` would read them all.
 */
export function QueryInteger(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^(0|[1-9]\d{0,14})$/.test(value) ? Number(value) : value,
  );
}

/** A decimal amount in a query string, read strictly: digits with an optional fraction (`12.5`), nothing else. */
export function QueryDecimal(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^(0|[1-9]\d{0,14})(\.\d{1,6})?$/.test(value) ? Number(value) : value,
  );
}
