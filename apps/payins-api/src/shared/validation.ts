import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { Optional } from '@pcs/http';

/** Phone numbers: digits with an optional leading +, 6 to 20 digits. */
const PHONE_PATTERN = /^\+?\d{6,20}$/;

/** An optional phone field: the specification's 128-character limit and the format above. */
export function OptionalPhone(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ maxLength: 128, example: '+59899123456' }),
    Optional(),
    IsString(),
    MaxLength(128),
    Matches(PHONE_PATTERN, { message: '$property must be digits with an optional leading + (6 to 20 digits)' }),
  );
}

/** An optional email field: the specification's 128-character limit and email syntax. */
export function OptionalEmail(): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ maxLength: 128 }), Optional(), MaxLength(128), IsEmail());
}
