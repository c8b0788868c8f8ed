import { registerDecorator, ValidationOptions } from 'class-validator';

/** The value, serialised as JSON, is at most `bytes` long. */
export function MaxJsonSize(bytes: number, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'maxJsonSize',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `$property must be at most ${bytes} bytes of JSON`, ...options },
      validator: { validate: (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null), 'utf8') <= bytes },
    });
}
