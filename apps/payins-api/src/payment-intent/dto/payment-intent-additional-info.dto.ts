import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsOptional, IsString, Matches, MaxLength, ValidateNested, registerDecorator } from 'class-validator';
import { isValidCbu, isValidCbuAlias } from '@pcs/payment-intents';

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
  @IsOptional()
  @Check('cbu', isValidCbu, '$property must be a CBU of 22 digits with valid check digits')
  cbu?: string;

  @ApiPropertyOptional({ example: 'mi.alias.mp', description: '6–20 letters, digits, dots or hyphens' })
  @IsOptional()
  @Check('cbuAlias', isValidCbuAlias, '$property must have 6 to 20 letters, digits, dots or hyphens')
  alias?: string;
}

export class PayerInfoDto {
  @ApiPropertyOptional({ example: '30123456', description: 'Argentine DNI, 7 or 8 digits' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{7,8}$/, { message: '$property must be an Argentine DNI of 7 or 8 digits' })
  dni?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @MaxLength(128)
  @IsEmail()
  email?: string;
}

export class PaymentIntentAdditionalInfoDto {
  @ApiPropertyOptional({ type: PaymentInfoDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PaymentInfoDto)
  paymentInfo?: PaymentInfoDto;

  @ApiPropertyOptional({ type: PayerInfoDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => PayerInfoDto)
  payerInfo?: PayerInfoDto;
}
