import { PAYOUT_INTERVALS, PAYOUT_WEEKDAYS } from '@pcs/merchants';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Currency, TransfersType } from '@pcs/kernel';
import { CountryResponse } from '../catalog/catalog.responses';
import { AddressDto } from '../shared/address.dto';

export class SettlementBankResponse {
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) settlementBankId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) bankId: string | null;
  @ApiProperty({ type: String, nullable: true }) accountNumber: string | null;
  @ApiProperty({ enum: Currency, nullable: true }) currency: string | null;
}

export class AccountResponse {
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) serviceAccount: string | null;
  @ApiProperty({ type: SettlementBankResponse, nullable: true }) settlementBank: SettlementBankResponse | null;
}

export class MerchantResponse {
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ example: 'SOLE_PROPRIETORSHIP_CORPORATION' }) type: string;
  @ApiProperty() merchantName: string;
  @ApiProperty({ type: String, nullable: true }) phone: string | null;
  @ApiProperty({ type: String, nullable: true }) taxIdNumber: string | null;
  @ApiProperty({ type: String, nullable: true }) fantasyName: string | null;
  @ApiProperty({ type: String, nullable: true }) email: string | null;
  @ApiProperty({ type: String, nullable: true }) webSite: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) dateOfFoundation: string | null;
  @ApiProperty({ type: Number, nullable: true }) monthlyLoad: number | null;
  @ApiProperty({ type: Number, nullable: true }) monthlyLoadUsd: number | null;
  @ApiProperty({ type: Number, nullable: true }) monthlyTpvUsd: number | null;
  @ApiProperty({ type: Number, nullable: true }) averageTransactionUsd: number | null;
  @ApiProperty({ type: Number, nullable: true }) averageAnnualBilling: number | null;
  @ApiProperty({ enum: ['ONBOARDING', 'ACTIVE', 'SUSPENDED'] }) status: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) approvedAt: string | null;
  @ApiProperty({ type: String, nullable: true }) metadata: string | null;
  @ApiProperty({ format: 'uuid' }) businessId: string;
  @ApiProperty({ example: 'UYU,USD', description: 'Comma-separated currencies of the merchant' }) accountCurrencies: string;
  @ApiProperty({ enum: TransfersType, nullable: true }) transfersType: string | null;
  @ApiPropertyOptional({ type: AddressDto, nullable: true }) address: AddressDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'Only shown to the credentials of the owning business' }) apiKey: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Only shown to the credentials of the owning business' }) apiSecret:
    string | null;
  @ApiProperty({ type: AccountResponse }) account: AccountResponse;
}

export class MerchantPageResponse {
  @ApiProperty({ example: '1' }) currentPage: string;
  @ApiProperty({ example: '20' }) pageSize: string;
  @ApiProperty({ type: 'integer' }) rowCount: number;
  @ApiProperty({ type: 'integer' }) pageCount: number;
  @ApiProperty({ type: [MerchantResponse] }) results: MerchantResponse[];
}

export class MerchantCountryConfigurationResponse {
  @ApiProperty({ format: 'uuid' }) merchantCountryConfigurationId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ format: 'uuid' }) countryId: string;
  @ApiProperty({ type: CountryResponse }) country: CountryResponse;
  @ApiProperty({ example: 22 }) vatPercentage: number;
}

export class PayoutScheduleResponse {
  @ApiProperty({ enum: PAYOUT_INTERVALS }) interval: string;
  @ApiPropertyOptional({ enum: PAYOUT_WEEKDAYS }) weeklyAnchor?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 31, type: 'integer' }) monthlyAnchor?: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' }, description: 'Per currency, major units' })
  minimumAmount: Record<string, number>;
}

export class CountryInstallmentsResponse {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 24 }) maxInstallments: number;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 24 }) interestFreeUpTo: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number', format: 'decimal' }, description: 'Per currency, major units' })
  minInstallmentAmount: Record<string, number>;
}

export class InstallmentsResponse {
  @ApiPropertyOptional({ type: CountryInstallmentsResponse }) URY?: CountryInstallmentsResponse;
  @ApiPropertyOptional({ type: CountryInstallmentsResponse }) ARG?: CountryInstallmentsResponse;
  @ApiPropertyOptional({ type: CountryInstallmentsResponse }) BRA?: CountryInstallmentsResponse;
}

/** The card-testing guard (contract §30), as the configuration shows it: the defaults unless changed. */
export class CardTestingGuardResponse {
  @ApiProperty({ example: true }) enabled: boolean;
  @ApiProperty({ type: 'integer', example: 3 }) maxDeclinesPerCard: number;
  @ApiProperty({ type: 'integer', example: 10 }) maxDeclinesPerAddress: number;
  @ApiProperty({ type: 'integer', example: 30 }) maxAttemptsPerAddress: number;
  @ApiProperty({ type: 'integer', example: 60 }) windowMinutes: number;
  @ApiProperty({ type: 'integer', example: 60 }) blockMinutes: number;
}

/** Dunning (contract §31), as the configuration shows it: the defaults unless changed. */
export class DunningResponse {
  @ApiProperty({ type: [Number], example: [1, 3, 5, 7] }) retryDays: number[];
  @ApiProperty({ enum: ['UNPAID', 'CANCELED'], example: 'UNPAID' }) finalStatus: 'UNPAID' | 'CANCELED';
}

/** One routing rule (contract §26), as the configuration shows it. */
export class RoutingRuleResponse {
  @ApiProperty({ example: 'VISA' }) paymentMethod: string;
  @ApiPropertyOptional({ example: 'URY' }) country?: string;
  @ApiPropertyOptional({ example: 'UYU' }) currency?: string;
  @ApiPropertyOptional({ type: Number, format: 'decimal' }) minAmount?: number;
  @ApiPropertyOptional({ type: Number, format: 'decimal' }) maxAmount?: number;
  @ApiProperty({ type: [String], example: ['DLOCAL', 'MERCADO_PAGO'] }) processors: string[];
  @ApiPropertyOptional({ type: [Number], example: [70, 30] }) split?: number[];
}

export class MerchantConfigurationResponse {
  @ApiProperty({ format: 'uuid' }) merchantConfigurationId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty() paymentSuccessNotification: boolean;
  @ApiProperty() paymentErrorNotification: boolean;
  @ApiProperty({ type: [String] }) notificationEmails: string[];
  @ApiProperty({ type: String, nullable: true }) shortName: string | null;
  @ApiProperty() fastPaymentsEnabled: boolean;
  @ApiProperty({ type: PayoutScheduleResponse }) payoutSchedule: PayoutScheduleResponse;
  @ApiProperty({ type: [MerchantCountryConfigurationResponse] }) merchantCountryConfigurations: MerchantCountryConfigurationResponse[];
  @ApiProperty({
    type: InstallmentsResponse,
    description: 'Installments per country (contract §25); a country absent offers one installment only',
  })
  installments: InstallmentsResponse;
  @ApiProperty({
    type: [RoutingRuleResponse],
    description: 'Routing rules, first match wins (contract §26); none: each method to its one processor',
  })
  routing: RoutingRuleResponse[];
  @ApiProperty({ type: CardTestingGuardResponse, description: 'The card-testing guard of the public pages (contract §30)' })
  cardTestingGuard: CardTestingGuardResponse;
  @ApiProperty({ type: DunningResponse, description: 'Retries of subscriptions’ declined invoices and their end (contract §31)' })
  dunning: DunningResponse;
}

export class DeletedResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ format: 'uuid' }) id: string;
}
