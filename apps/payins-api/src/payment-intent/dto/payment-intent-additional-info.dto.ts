import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, Matches, MaxLength, registerDecorator } from 'class-validator';
import { Optional, NestedObject } from '@pcs/http';
import { isValidCbu, isValidCbuAlias } from '@pcs/kernel';

function Check(name: string, test: (value: string) => boolean, message: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message },
      validator: { validate: (value: unknown) => typeof value === 'string' && test(value) },
    });
}

export class PaymentInfoDto {
  @ApiPropertyOptional({ example: '2850590940090418135201', description: 'Argentine CBU: 22 digits with both check digits' })
  @Optional()
  @Check('cbu', isValidCbu, '$property must be a CBU of 22 digits with valid check digits')
  cbu?: string;

  @ApiPropertyOptional({ example: 'mi.alias.mp', description: '6–20 letters, digits, dots or hyphens' })
  @Optional()
  @Check('cbuAlias', isValidCbuAlias, '$property must have 6 to 20 letters, digits, dots or hyphens')
  alias?: string;
}

export class PayerInfoDto {
  @ApiPropertyOptional({ example: '30123456', description: 'Argentine DNI, 7 or 8 digits' })
  @Optional()
  @IsString()
  @Matches(/^\d{7,8}$/, { message: '$property must be an Argentine DNI of 7 or 8 digits' })
  dni?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @Optional()
  @MaxLength(128)
  @IsEmail()
  email?: string;
}

export class PaymentIntentAdditionalInfoDto {
  @ApiPropertyOptional({ type: PaymentInfoDto })
  @Optional()
  @NestedObject(() => PaymentInfoDto)
  paymentInfo?: PaymentInfoDto;

  @ApiPropertyOptional({ type: PayerInfoDto })
  @Optional()
  @NestedObject(() => PayerInfoDto)
  payerInfo?: PayerInfoDto;
}
