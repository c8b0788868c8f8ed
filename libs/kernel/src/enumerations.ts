/** Enumerations of the specification, verbatim. */

/** Countries of the payins API (CountryCode). */
export enum CountryCode {
  URY = 'URY',
  ARG = 'ARG',
}

/** Countries of the B2B API (Country); the payins API's set plus Brazil. */
export enum B2bCountry {
  ARG = 'ARG',
  BRA = 'BRA',
  URY = 'URY',
}

export enum DocumentType {
  PASSPORT = 'PASSPORT',
  IDENTITY_DOCUMENT = 'IDENTITY_DOCUMENT',
  DNI = 'DNI',
}

export enum TransfersType {
  L2L = 'L2L',
  CROSSBORDER = 'CROSSBORDER',
}

export enum PayinType {
  DEFAULT = 'DEFAULT',
  TRANSFER = 'TRANSFER',
}

export enum PaymentInstrumentTypeName {
  CREDIT_CARD = 'CREDIT_CARD',
  DEBIT_CARD = 'DEBIT_CARD',
  PREPAID_CARD = 'PREPAID_CARD',
  CASH = 'CASH',
  BANK_TRANSFER = 'BANK_TRANSFER',
  A2A = 'A2A',
  PIX = 'PIX',
  WALLETS = 'WALLETS',
  CRYPTO = 'CRYPTO',
}

export enum PaymentMethodName {
  VISA = 'VISA',
  MASTER_CARD = 'MASTER_CARD',
  AMERICAN_EXPRESS = 'AMERICAN_EXPRESS',
  OCA = 'OCA',
  SANTANDER = 'SANTANDER',
  HSBC = 'HSBC',
  BBVA = 'BBVA',
  ITAU = 'ITAU',
  SCOTIABANK = 'SCOTIABANK',
  BROU = 'BROU',
  PIX = 'PIX',
  APPLE_PAY = 'APPLE_PAY',
  GOOGLE_WALLET = 'GOOGLE_WALLET',
  MERCADO_PAGO = 'MERCADO_PAGO',
}

export enum TransactionStatus {
  PENDING = 'PENDING',
  SCHEDULED = 'SCHEDULED',
  APPROVED = 'APPROVED',
  CANCELLED = 'CANCELLED',
  REJECTED = 'REJECTED',
  EXPIRED = 'EXPIRED',
}

export enum OrderBy {
  ASC = 'ASC',
  DESC = 'DESC',
}

export enum SortBy {
  AMOUNT = 'AMOUNT',
  DATE = 'DATE',
  STATUS = 'STATUS',
}

export enum ManualRefundStatus {
  MANUAL_REFUND_PENDING = 'MANUAL_REFUND_PENDING',
  MANUAL_REFUND_CONFIRMED = 'MANUAL_REFUND_CONFIRMED',
}

export enum PaymentIntentType {
  ECO = 'ECO',
}
