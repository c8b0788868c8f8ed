import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { InvalidRequestError } from '@pcs/kernel';

/**
 * class-validator over every body and query: unknown fields are refused, not
 * dropped, and the error names each offending field by its path.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  private readonly inner = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => toInvalidRequest(errors),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Only a class is a shape to validate. A parameter typed by an enum carries the enum's object as its
    // reflected type under some compilers (SWC, in the tests): it is a value to check by its own pipe, not a class.
    if (metadata.metatype !== undefined && typeof metadata.metatype !== 'function') metadata = { ...metadata, metatype: undefined };
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
      // An absent body is an empty object; any other non-object is refused.
      if (value === undefined) value = {};
      else if (!isObject) throw new InvalidRequestError(['body'], 'the request body must be a JSON object');
    }
    return this.inner.transform(value, metadata);
  }
}

function toInvalidRequest(errors: ValidationError[]): InvalidRequestError {
  const problems: { field: string; text: string }[] = [];
  const walk = (list: ValidationError[], prefix: string) => {
    for (const error of list) {
      const field = prefix ? `${prefix}.${error.property}` : error.property;
      for (const text of Object.values(error.constraints ?? {})) problems.push({ field, text });
      if (error.children?.length) walk(error.children, field);
    }
  };
  walk(errors, '');
  const fields = [...new Set(problems.map((p) => p.field))];
  const detail = problems.map((p) => (p.text.startsWith(p.field) ? p.text : `${p.field}: ${p.text}`)).join('; ');
  return new InvalidRequestError(fields, detail || 'the request is not valid');
}
