import { applyDecorators, Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FUNDS_FLOWS, FundsFlow, PaymentMethodName } from '@pcs/kernel';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEnum, IsIn, IsString, Matches, ValidateIf } from 'class-validator';
import type { GatewayAccountView } from './gateway-accounts.service';
import type { AccountSetting } from './gateway-account-kind';

/** What every provider's connection request carries besides its secrets. */
export interface ProviderAccountBody {
  paymentMethods?: PaymentMethodName[];
  fundsFlow?: FundsFlow;
}

/** How one route of a processor's account is documented. */
export interface AccountOperationDoc {
  readonly summary: string;
  readonly description: string;
  readonly operationId: string;
}

/**
 * What one processor supplies to the one shape of its account's routes
 * (`/merchant/:merchantId/gateway-account/<path>`, contracts §16, §20): its
 * request and answer schemas, its secrets under its own names, the hints it
 * answers instead, and its documentation. Each processor's library exports
 * its own; the payins API builds the routes of every registered one.
 */
export interface ProviderAccountSpec<B extends ProviderAccountBody = ProviderAccountBody, R = unknown> {
  /** The provider's name as the gateway registry knows it. */
  readonly provider: string;
  /** The routes' last segment. */
  readonly path: string;
  /** The class name Nest and stack traces show. */
  readonly className: string;
  readonly body: Type<B>;
  readonly response: Type<R>;
  readonly deleted: Type<unknown>;
  readonly example: B;
  readonly doc: { readonly connect: AccountOperationDoc; readonly get: AccountOperationDoc; readonly disconnect: AccountOperationDoc };
  /** The secrets of a request, under the provider's own names (sealed at rest, never answered). */
  secretsOf(body: B): Record<string, string>;
  /** The view's hints of those secrets, as the answer names them. */
  hintsOf(view: GatewayAccountView): Record<string, string>;
  /** The settings of a request (never secrets; one it omits keeps its value), when the processor has any. */
  settingsOf?(body: B): Record<string, AccountSetting | undefined>;
  /** The view's settings, as the answer names them (each with its default when the account has none). */
  answerSettingsOf?(view: GatewayAccountView): Record<string, AccountSetting | null>;
}

/** 1–256 printable characters (contract §16). */
const PRINTABLE = /^[\x20-\x7E]{1,256}$/;

/** A secret of the processor's account: 1–256 printable characters, sealed at rest, never answered. */
export function AccountSecret(name: string, description: string, example?: string): PropertyDecorator {
  // In the order stacked decorators apply (the last written first), so validation reports as before.
  return applyDecorators(
    Matches(PRINTABLE, { message: `${name} must have 1 to 256 printable characters` }),
    IsString(),
    ApiProperty({ minLength: 1, maxLength: 256, ...(example === undefined ? {} : { example }), description }),
  );
}

/** The payment methods collected through the account: 1–50 of the catalog's, each one the merchant offers. */
export function RoutedPaymentMethods(doc: { readonly description: string; readonly default?: readonly string[] }): PropertyDecorator {
  return applyDecorators(
    IsEnum(PaymentMethodName, { each: true }),
    ArrayMaxSize(50),
    ArrayMinSize(1),
    IsArray(),
    ValidateIf((_object, value) => value !== undefined),
    ApiPropertyOptional({
      enum: PaymentMethodName,
      isArray: true,
      ...(doc.default ? { default: [...doc.default] } : {}),
      description: doc.description,
    }),
  );
}

/** Whose account it is (contract §23), kept on a replacement that omits it. */
export function AccountFundsFlow(): PropertyDecorator {
  return applyDecorators(
    IsIn(FUNDS_FLOWS, { message: `fundsFlow must be one of ${FUNDS_FLOWS.join(', ')}` }),
    ValidateIf((_object, value) => value !== undefined),
    ApiPropertyOptional({
      enum: FUNDS_FLOWS,
      description:
        'Whose account this is (contract §23). MERCHANT (the default for a new account): the merchant’s own; the processor pays the merchant, ' +
        'and only our fee is owed (netted by payouts). PLATFORM: the business’s; the business holds the money and pays the merchant out. ' +
        'Omitted on a replacement: the account keeps its flow. A change applies to payments approved afterwards.',
    }),
  );
}

/** What every account's answer says besides its hints (the provider's own answer class declares them in this order). */
export const ACCOUNT_ANSWER = {
  merchantId: ApiProperty({ format: 'uuid' }),
  paymentMethods: ApiProperty({ enum: PaymentMethodName, isArray: true }),
  fundsFlow: ApiProperty({
    enum: FUNDS_FLOWS,
    description: 'Whose account this is (contract §23): the business’s (PLATFORM) or the merchant’s own (MERCHANT)',
  }),
  at: ApiProperty({ format: 'date-time' }),
} as const;

/** The answer to a disconnection. */
export class GatewayAccountDeletedResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
}
