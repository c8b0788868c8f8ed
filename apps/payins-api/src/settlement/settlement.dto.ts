import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateBound, Optional, PageQueryDto } from '@pcs/http';
import { Currency } from '@pcs/kernel';
import { ACCOUNT_TYPES, BALANCE_TRANSACTION_TYPES, PAYOUT_STATUSES } from '@pcs/settlement';
import type { AccountType, BalanceTransactionType, PayoutStatus } from '@pcs/settlement';
import { IsEnum, IsIn, IsNumber, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';

export class ListBanksQuery {
  @ApiPropertyOptional({ enum: ['URY', 'ARG', 'BRA'], description: 'Only the banks of this country' })
  @Optional()
  @IsIn(['URY', 'ARG', 'BRA'])
  country?: string;
}

/** A settlement account in one currency (contract §19). */
export class PutSettlementAccountDto {
  @ApiProperty({ format: 'uuid', description: 'A bank of GET /bank, in the merchant’s country' })
  @IsUUID('all')
  bankId: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 77,
    example: '0110001200000000000012',
    description:
      'Argentina: the CBU or CVU (22 digits). Brazil: branch/account-digit (0001/12345678-9), or the PIX key. Uruguay: the account’s digits.',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(77)
  accountNumber: string;

  @ApiProperty({ enum: ACCOUNT_TYPES })
  @IsIn(ACCOUNT_TYPES)
  accountType: AccountType;

  @ApiPropertyOptional({ maxLength: 32, description: 'The holder’s CUIT/CUIL, CPF/CNPJ, or RUT/cédula (check digits verified)' })
  @Optional()
  @IsString()
  @MaxLength(32)
  holderDocument?: string;
}

/**
 * An admin's confirmation of a settlement account (contract §24, §30), made by the dashboard once the
 * admin has given it a fresh code of their authenticator: the API takes no person's code.
 */
export class ConfirmSettlementAccountDto {
  @ApiProperty({
    maxLength: 4100,
    description:
      'The confirmation the dashboard makes after the admin’s fresh code: what was confirmed (business, merchant, currency, bank, ' +
      'account number), by whom and when, under an HMAC keyed from the master key; good for 5 minutes.',
    example: 'eyJidXNpbmVzc0lkIjoi….Jx0v…',
  })
  @IsString()
  @MaxLength(4100)
  confirmation: string;
}

export class CurrencyParam {
  @IsEnum(Currency)
  currency: Currency;
}

export class ListBalanceTransactionsQuery extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ enum: Currency })
  @Optional()
  @IsEnum(Currency)
  currency?: Currency;

  @ApiPropertyOptional({ enum: BALANCE_TRANSACTION_TYPES })
  @Optional()
  @IsIn(BALANCE_TRANSACTION_TYPES)
  type?: BalanceTransactionType;

  @ApiPropertyOptional({ format: 'uuid', description: 'The transactions a payout swept, and its own' })
  @Optional()
  @IsUUID('all')
  payoutId?: string;

  @ApiPropertyOptional({ example: '2026-11-01', description: 'On createdAt, inclusive; a date means from its start (UTC)' })
  @Optional()
  @IsDateBound()
  dateFrom?: string;

  @ApiPropertyOptional({ example: '2026-11-30', description: 'On createdAt, inclusive; a date means until its end (UTC)' })
  @Optional()
  @IsDateBound()
  dateTo?: string;
}

/** Pays out the available balance in a currency, or an amount of it (contract §19). */
export class CreatePayoutDto {
  @ApiProperty({ enum: Currency })
  @IsEnum(Currency)
  currency: Currency;

  @ApiPropertyOptional({
    example: 1500.5,
    description: 'Major units, a JSON number (a string, a boolean or hexadecimal is refused); absent: the whole available balance',
  })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  amount?: number;
}

export class ListPayoutsQuery extends PageQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  merchantId?: string;

  @ApiPropertyOptional({ enum: PAYOUT_STATUSES })
  @Optional()
  @IsIn(PAYOUT_STATUSES)
  status?: PayoutStatus;

  @ApiPropertyOptional({ enum: Currency })
  @Optional()
  @IsEnum(Currency)
  currency?: Currency;

  @ApiPropertyOptional({ example: '2026-11-01', description: 'On createdAt, inclusive' })
  @Optional()
  @IsDateBound()
  dateFrom?: string;

  @ApiPropertyOptional({ example: '2026-11-30', description: 'On createdAt, inclusive' })
  @Optional()
  @IsDateBound()
  dateTo?: string;
}

export class PageOnlyQuery extends PageQueryDto {}
