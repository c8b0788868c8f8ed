import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reference data (countries, instrument types, payment methods, country
 * processors) has fixed ids so that every environment shares them.
 */
export class InitialSchema1795300000000 implements MigrationInterface {
  name = 'InitialSchema1795300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
CREATE TABLE country (
  country_id          uuid PRIMARY KEY,
  name                text NOT NULL,
  name_es             text NOT NULL,
  iso2                char(2) NOT NULL UNIQUE,
  iso3                char(3) NOT NULL UNIQUE,
  iso_numeric         integer NOT NULL UNIQUE,
  currency            char(3) NOT NULL,
  currencies          text[] NOT NULL,
  phone_code          integer NOT NULL,
  continent           text NOT NULL,
  -- VAT rates in basis points (22% = 2200): exact integers, never floats.
  vat_rates_bp        integer[] NOT NULL,
  default_vat_rate_bp integer NOT NULL,
  CONSTRAINT country_default_vat_allowed CHECK (default_vat_rate_bp = ANY (vat_rates_bp))
);

CREATE TABLE payment_instrument_type (
  payment_instrument_type_id uuid PRIMARY KEY,
  name                       text NOT NULL UNIQUE
);

CREATE TABLE payment_method (
  payment_method_id        uuid PRIMARY KEY,
  name                     text NOT NULL UNIQUE,
  image_path               text NOT NULL,
  may_have_async_payments  boolean NOT NULL,
  may_have_payments_limits boolean NOT NULL,
  supports_reserve         boolean NOT NULL,
  -- Business days between approval and settlement (the payin's liquidationDate).
  settlement_delay_days    integer NOT NULL CHECK (settlement_delay_days >= 0)
);

CREATE TABLE country_processor (
  country_processor_id       uuid PRIMARY KEY,
  country_id                 uuid NOT NULL REFERENCES country,
  payment_method_id          uuid NOT NULL REFERENCES payment_method,
  payment_instrument_type_id uuid NOT NULL REFERENCES payment_instrument_type,
  active                     boolean NOT NULL DEFAULT true,
  currencies                 text[] NOT NULL,
  gateway                    text NOT NULL,
  CONSTRAINT country_processor_unique UNIQUE (country_id, payment_method_id, payment_instrument_type_id)
);

CREATE TABLE business (
  business_id uuid PRIMARY KEY,
  name        varchar(128) NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE business_country_processor (
  business_country_processor_id uuid PRIMARY KEY,
  business_id                   uuid NOT NULL REFERENCES business,
  country_processor_id          uuid NOT NULL REFERENCES country_processor,
  created_at                    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT business_country_processor_unique UNIQUE (business_id, country_processor_id)
);

CREATE TABLE merchant (
  merchant_id                 uuid PRIMARY KEY,
  business_id                 uuid NOT NULL REFERENCES business,
  country_id                  uuid NOT NULL REFERENCES country,
  type                        text NOT NULL,
  merchant_name               varchar(128) NOT NULL,
  fantasy_name                varchar(128),
  phone                       varchar(128),
  email                       varchar(128),
  tax_id_number               varchar(64),
  web_site                    varchar(256),
  date_of_foundation          timestamptz,
  -- Declared volumes, integer minor units (cents).
  monthly_load                bigint,
  monthly_load_usd            bigint,
  monthly_tpv_usd             bigint,
  average_transaction_usd     bigint,
  average_annual_billing      bigint,
  status                      text NOT NULL CHECK (status IN ('ONBOARDING', 'ACTIVE', 'SUSPENDED')),
  approved_at                 timestamptz,
  metadata                    text,
  currencies                  text[] NOT NULL DEFAULT '{}',
  transfers_type              text CHECK (transfers_type IN ('L2L', 'CROSSBORDER')),
  address                     jsonb,
  service_account_id          uuid,
  settlement_bank_id          uuid,
  settlement_bank_bank_id     uuid,
  settlement_account_number   varchar(64),
  settlement_currency         char(3),
  created_at                  timestamptz NOT NULL DEFAULT now(),
  updated_at                  timestamptz NOT NULL DEFAULT now(),
  deleted_at                  timestamptz
);
-- Listing a business's live merchants, newest first.
CREATE INDEX merchant_business_live_idx ON merchant (business_id, created_at DESC) WHERE deleted_at IS NULL;

CREATE TABLE api_credential (
  credential_id     uuid PRIMARY KEY,
  api_key           varchar(64) NOT NULL UNIQUE,
  -- AES-256-GCM under SECRETS_MASTER_KEY, bound to api_key; never plain text.
  secret_ciphertext text NOT NULL,
  business_id       uuid NOT NULL REFERENCES business,
  merchant_id       uuid REFERENCES merchant,
  created_at        timestamptz NOT NULL DEFAULT now(),
  -- Set when rotated: the old pair works until then (grace period).
  expires_at        timestamptz,
  revoked_at        timestamptz
);
CREATE INDEX api_credential_owner_idx ON api_credential (business_id, merchant_id, created_at DESC);

CREATE TABLE merchant_configuration (
  merchant_configuration_id    uuid PRIMARY KEY,
  merchant_id                  uuid NOT NULL UNIQUE REFERENCES merchant,
  payment_success_notification boolean NOT NULL DEFAULT false,
  payment_error_notification   boolean NOT NULL DEFAULT false,
  notification_emails          text[] NOT NULL DEFAULT '{}',
  short_name                   varchar(32),
  fast_payments_enabled        boolean NOT NULL DEFAULT false,
  updated_at                   timestamptz NOT NULL DEFAULT now()
);
-- Fast payment intents find the merchant by short name, case-insensitively.
CREATE UNIQUE INDEX merchant_configuration_short_name_idx ON merchant_configuration (lower(short_name)) WHERE short_name IS NOT NULL;

CREATE TABLE merchant_country_configuration (
  merchant_country_configuration_id uuid PRIMARY KEY,
  merchant_id                       uuid NOT NULL REFERENCES merchant,
  country_id                        uuid NOT NULL REFERENCES country,
  vat_rate_bp                       integer NOT NULL CHECK (vat_rate_bp BETWEEN 0 AND 10000),
  CONSTRAINT merchant_country_configuration_unique UNIQUE (merchant_id, country_id)
);

CREATE TABLE merchant_country_processor (
  merchant_country_processor_id uuid PRIMARY KEY,
  merchant_id                   uuid NOT NULL REFERENCES merchant,
  country_processor_id          uuid NOT NULL REFERENCES country_processor,
  onboarding_status             text NOT NULL CHECK (onboarding_status IN ('ONBOARDING', 'ACTIVE', 'REJECTED')),
  active                        boolean NOT NULL DEFAULT true,
  created_at                    timestamptz NOT NULL DEFAULT now(),
  updated_at                    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT merchant_country_processor_unique UNIQUE (merchant_id, country_processor_id)
);
`);
    await queryRunner.query(`
INSERT INTO country (country_id, name, name_es, iso2, iso3, iso_numeric, currency, currencies, phone_code, continent, vat_rates_bp, default_vat_rate_bp) VALUES
  ('dd788418-86f9-4148-9ad2-71ce257bc72c', 'Uruguay', 'Uruguay', 'UY', 'URY', 858, 'UYU', ARRAY['UYU','USD']::text[], 598, 'South America', ARRAY[0,1000,2200]::int[], 2200),
  ('715d733d-c541-468e-9889-ba6c65d84188', 'Argentina', 'Argentina', 'AR', 'ARG', 32, 'ARS', ARRAY['ARS','USD']::text[], 54, 'South America', ARRAY[0,1050,2100,2700]::int[], 2100),
  ('da235849-1092-4164-9ac0-d791ab03747a', 'Brazil', 'Brasil', 'BR', 'BRA', 76, 'BRL', ARRAY['BRL','USD']::text[], 55, 'South America', ARRAY[0]::int[], 0);

INSERT INTO payment_instrument_type (payment_instrument_type_id, name) VALUES
  ('5e8a2eda-0870-46b9-9940-002f1cd25e31', 'CREDIT_CARD'),
  ('04c8d4d5-f035-47f0-b4aa-53f6fd9c2773', 'DEBIT_CARD'),
  ('08495e95-76e2-485a-ada2-db50b7870c87', 'PREPAID_CARD'),
  ('342bf330-5d49-4b2a-91fa-ebf64adda1e1', 'CASH'),
  ('2686137f-7cc8-49e8-b40a-c755e2b09048', 'BANK_TRANSFER'),
  ('10ce1a0f-f13e-4c04-a5cb-4ba9f4aa2974', 'A2A'),
  ('f517c412-92ec-4f8a-b425-a9e3cebc5889', 'PIX'),
  ('9949bce0-5906-4890-a3f3-435fe857d298', 'WALLETS'),
  ('bec8997f-cced-4311-96a8-ce15f260046b', 'CRYPTO');

INSERT INTO payment_method (payment_method_id, name, image_path, may_have_async_payments, may_have_payments_limits, supports_reserve, settlement_delay_days) VALUES
  ('eaaba2e1-ed8e-4431-8815-5104b5a4565d', 'VISA', '/assets/payment-methods/visa.svg', false, true, true, 2),
  ('673372bf-a895-4f48-aeed-5a580772687e', 'MASTER_CARD', '/assets/payment-methods/master-card.svg', false, true, true, 2),
  ('d0b6b96b-15a6-4b36-b9dc-f5f1c23132d2', 'AMERICAN_EXPRESS', '/assets/payment-methods/american-express.svg', false, true, true, 3),
  ('04263da8-07cf-43b8-b1f8-33a488b51d92', 'OCA', '/assets/payment-methods/oca.svg', false, true, true, 2),
  ('9939a972-5a7d-429a-bf81-50471a86c42a', 'SANTANDER', '/assets/payment-methods/santander.svg', true, true, false, 1),
  ('26a67831-29db-45a0-8f5a-dfffab15ee98', 'HSBC', '/assets/payment-methods/hsbc.svg', true, true, false, 1),
  ('871c21d8-42e7-4eae-a24b-a43d1d3bea2f', 'BBVA', '/assets/payment-methods/bbva.svg', true, true, false, 1),
  ('89beca3a-fb40-4227-8339-71931383f498', 'ITAU', '/assets/payment-methods/itau.svg', true, true, false, 1),
  ('c0a1a4e5-282e-418c-8a70-ba60e9639f3d', 'SCOTIABANK', '/assets/payment-methods/scotiabank.svg', true, true, false, 1),
  ('9ee0eba2-eb18-431e-89d8-7a05fa03d5a3', 'BROU', '/assets/payment-methods/brou.svg', true, true, false, 1),
  ('4903d63c-2620-440d-9bec-65926cd03880', 'PIX', '/assets/payment-methods/pix.svg', true, true, false, 0),
  ('ee8c2e4b-2f74-4de2-8911-73992f1c81d0', 'APPLE_PAY', '/assets/payment-methods/apple-pay.svg', false, false, true, 2),
  ('249dccd6-e469-41eb-b1cf-1710d8d393af', 'GOOGLE_WALLET', '/assets/payment-methods/google-wallet.svg', false, false, true, 2),
  ('1f831faa-42a4-4c07-a062-a1aa909dfc9d', 'MERCADO_PAGO', '/assets/payment-methods/mercado-pago.svg', true, true, false, 1);

INSERT INTO country_processor (country_processor_id, country_id, payment_method_id, payment_instrument_type_id, currencies, gateway) VALUES
  ('a4edc6e9-ebb9-4e11-a8aa-70c9b67208b8', 'dd788418-86f9-4148-9ad2-71ce257bc72c', 'eaaba2e1-ed8e-4431-8815-5104b5a4565d', '5e8a2eda-0870-46b9-9940-002f1cd25e31', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY VISA CREDIT_CARD */,
  ('55f6dd30-3411-43ff-ab12-4465d451576b', 'dd788418-86f9-4148-9ad2-71ce257bc72c', 'eaaba2e1-ed8e-4431-8815-5104b5a4565d', '04c8d4d5-f035-47f0-b4aa-53f6fd9c2773', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY VISA DEBIT_CARD */,
  ('ad52128b-fd89-4ab3-be2b-595a3072efea', 'dd788418-86f9-4148-9ad2-71ce257bc72c', '673372bf-a895-4f48-aeed-5a580772687e', '5e8a2eda-0870-46b9-9940-002f1cd25e31', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY MASTER_CARD CREDIT_CARD */,
  ('55e67a57-0ef9-482e-b3b3-a73558349629', 'dd788418-86f9-4148-9ad2-71ce257bc72c', '673372bf-a895-4f48-aeed-5a580772687e', '04c8d4d5-f035-47f0-b4aa-53f6fd9c2773', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY MASTER_CARD DEBIT_CARD */,
  ('186bc23a-8b75-4dc1-b211-a25c3f584201', 'dd788418-86f9-4148-9ad2-71ce257bc72c', 'd0b6b96b-15a6-4b36-b9dc-f5f1c23132d2', '5e8a2eda-0870-46b9-9940-002f1cd25e31', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY AMERICAN_EXPRESS CREDIT_CARD */,
  ('7ad89273-16fd-4155-9e6f-a4b3e2855e39', '715d733d-c541-468e-9889-ba6c65d84188', 'eaaba2e1-ed8e-4431-8815-5104b5a4565d', '5e8a2eda-0870-46b9-9940-002f1cd25e31', ARRAY['ARS','USD']::text[], 'SANDBOX') /* ARG VISA CREDIT_CARD */,
  ('54613337-fd05-4c3d-832e-0e3d5dc06fb7', '715d733d-c541-468e-9889-ba6c65d84188', 'eaaba2e1-ed8e-4431-8815-5104b5a4565d', '04c8d4d5-f035-47f0-b4aa-53f6fd9c2773', ARRAY['ARS','USD']::text[], 'SANDBOX') /* ARG VISA DEBIT_CARD */,
  ('9c8fc7e7-b88c-4113-b755-7198bb33040a', '715d733d-c541-468e-9889-ba6c65d84188', '673372bf-a895-4f48-aeed-5a580772687e', '5e8a2eda-0870-46b9-9940-002f1cd25e31', ARRAY['ARS','USD']::text[], 'SANDBOX') /* ARG MASTER_CARD CREDIT_CARD */,
  ('9b7ef3e5-7fbb-4988-9ae3-107e46b8de46', '715d733d-c541-468e-9889-ba6c65d84188', '673372bf-a895-4f48-aeed-5a580772687e', '04c8d4d5-f035-47f0-b4aa-53f6fd9c2773', ARRAY['ARS','USD']::text[], 'SANDBOX') /* ARG MASTER_CARD DEBIT_CARD */,
  ('7326eef8-38e6-40bf-b39e-dbaf49530d6c', '715d733d-c541-468e-9889-ba6c65d84188', 'd0b6b96b-15a6-4b36-b9dc-f5f1c23132d2', '5e8a2eda-0870-46b9-9940-002f1cd25e31', ARRAY['ARS','USD']::text[], 'SANDBOX') /* ARG AMERICAN_EXPRESS CREDIT_CARD */,
  ('5f328235-d1ba-4751-b16f-685941964fea', 'da235849-1092-4164-9ac0-d791ab03747a', 'eaaba2e1-ed8e-4431-8815-5104b5a4565d', '5e8a2eda-0870-46b9-9940-002f1cd25e31', ARRAY['BRL','USD']::text[], 'SANDBOX') /* BRA VISA CREDIT_CARD */,
  ('9ef0eb95-8457-47f9-b86c-0555cd9b45ce', 'da235849-1092-4164-9ac0-d791ab03747a', 'eaaba2e1-ed8e-4431-8815-5104b5a4565d', '04c8d4d5-f035-47f0-b4aa-53f6fd9c2773', ARRAY['BRL','USD']::text[], 'SANDBOX') /* BRA VISA DEBIT_CARD */,
  ('3ae659ce-747a-448d-9943-96005590e968', 'da235849-1092-4164-9ac0-d791ab03747a', '673372bf-a895-4f48-aeed-5a580772687e', '5e8a2eda-0870-46b9-9940-002f1cd25e31', ARRAY['BRL','USD']::text[], 'SANDBOX') /* BRA MASTER_CARD CREDIT_CARD */,
  ('6a4d9f2b-e6e7-457c-aa52-eab2f69718f2', 'da235849-1092-4164-9ac0-d791ab03747a', '673372bf-a895-4f48-aeed-5a580772687e', '04c8d4d5-f035-47f0-b4aa-53f6fd9c2773', ARRAY['BRL','USD']::text[], 'SANDBOX') /* BRA MASTER_CARD DEBIT_CARD */,
  ('073d9734-2771-4e85-9774-c72fa53e0ef5', 'da235849-1092-4164-9ac0-d791ab03747a', 'd0b6b96b-15a6-4b36-b9dc-f5f1c23132d2', '5e8a2eda-0870-46b9-9940-002f1cd25e31', ARRAY['BRL','USD']::text[], 'SANDBOX') /* BRA AMERICAN_EXPRESS CREDIT_CARD */,
  ('8ed8856e-36cd-4f90-8cf6-fe34cd6b860d', 'dd788418-86f9-4148-9ad2-71ce257bc72c', '673372bf-a895-4f48-aeed-5a580772687e', '08495e95-76e2-485a-ada2-db50b7870c87', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY MASTER_CARD PREPAID_CARD */,
  ('18be5bea-b303-42c3-9331-310aa330d4c5', '715d733d-c541-468e-9889-ba6c65d84188', '673372bf-a895-4f48-aeed-5a580772687e', '08495e95-76e2-485a-ada2-db50b7870c87', ARRAY['ARS','USD']::text[], 'SANDBOX') /* ARG MASTER_CARD PREPAID_CARD */,
  ('7e01a6b9-6a89-4466-9046-3f9d53cb2187', 'dd788418-86f9-4148-9ad2-71ce257bc72c', 'eaaba2e1-ed8e-4431-8815-5104b5a4565d', '08495e95-76e2-485a-ada2-db50b7870c87', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY VISA PREPAID_CARD */,
  ('40daa5e0-4677-463d-9456-604973f41fe8', 'dd788418-86f9-4148-9ad2-71ce257bc72c', '04263da8-07cf-43b8-b1f8-33a488b51d92', '5e8a2eda-0870-46b9-9940-002f1cd25e31', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY OCA CREDIT_CARD */,
  ('8bb59e59-7c2e-4879-8bd4-e48ebae7f880', 'dd788418-86f9-4148-9ad2-71ce257bc72c', '9ee0eba2-eb18-431e-89d8-7a05fa03d5a3', '2686137f-7cc8-49e8-b40a-c755e2b09048', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY BROU BANK_TRANSFER */,
  ('dc9866e5-4097-4dba-962e-2a4173e77e63', 'dd788418-86f9-4148-9ad2-71ce257bc72c', '9939a972-5a7d-429a-bf81-50471a86c42a', '2686137f-7cc8-49e8-b40a-c755e2b09048', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY SANTANDER BANK_TRANSFER */,
  ('955ec33a-3bdb-4a69-bbf8-6cab15ed3e57', 'dd788418-86f9-4148-9ad2-71ce257bc72c', '89beca3a-fb40-4227-8339-71931383f498', '2686137f-7cc8-49e8-b40a-c755e2b09048', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY ITAU BANK_TRANSFER */,
  ('2e9500c6-2dac-4cc0-8ea4-ce33c5eac51f', 'dd788418-86f9-4148-9ad2-71ce257bc72c', '26a67831-29db-45a0-8f5a-dfffab15ee98', '2686137f-7cc8-49e8-b40a-c755e2b09048', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY HSBC BANK_TRANSFER */,
  ('8870fdda-b758-4e58-9252-1eb9495a58fe', 'dd788418-86f9-4148-9ad2-71ce257bc72c', '871c21d8-42e7-4eae-a24b-a43d1d3bea2f', '2686137f-7cc8-49e8-b40a-c755e2b09048', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY BBVA BANK_TRANSFER */,
  ('595b8b06-0aee-4922-ab28-a32b5d48eff9', 'dd788418-86f9-4148-9ad2-71ce257bc72c', 'c0a1a4e5-282e-418c-8a70-ba60e9639f3d', '2686137f-7cc8-49e8-b40a-c755e2b09048', ARRAY['UYU','USD']::text[], 'SANDBOX') /* URY SCOTIABANK BANK_TRANSFER */,
  ('edfc6696-29c6-4894-a323-938b2afc0233', '715d733d-c541-468e-9889-ba6c65d84188', '9939a972-5a7d-429a-bf81-50471a86c42a', '2686137f-7cc8-49e8-b40a-c755e2b09048', ARRAY['ARS','USD']::text[], 'SANDBOX') /* ARG SANTANDER BANK_TRANSFER */,
  ('a6e3fba3-915d-4a9d-840a-73a76261a6b5', '715d733d-c541-468e-9889-ba6c65d84188', '871c21d8-42e7-4eae-a24b-a43d1d3bea2f', '2686137f-7cc8-49e8-b40a-c755e2b09048', ARRAY['ARS','USD']::text[], 'SANDBOX') /* ARG BBVA BANK_TRANSFER */,
  ('368a9910-41af-4e0d-b4eb-8a56ac64c5f8', 'da235849-1092-4164-9ac0-d791ab03747a', '89beca3a-fb40-4227-8339-71931383f498', '10ce1a0f-f13e-4c04-a5cb-4ba9f4aa2974', ARRAY['BRL']::text[], 'SANDBOX') /* BRA ITAU A2A */,
  ('85c82ed7-c62d-42d6-a05f-3d749bfe7d49', 'da235849-1092-4164-9ac0-d791ab03747a', '9939a972-5a7d-429a-bf81-50471a86c42a', '10ce1a0f-f13e-4c04-a5cb-4ba9f4aa2974', ARRAY['BRL']::text[], 'SANDBOX') /* BRA SANTANDER A2A */,
  ('4566f018-5b3c-40fe-919e-aea1e0fc6fb0', 'da235849-1092-4164-9ac0-d791ab03747a', '4903d63c-2620-440d-9bec-65926cd03880', 'f517c412-92ec-4f8a-b425-a9e3cebc5889', ARRAY['BRL']::text[], 'SANDBOX') /* BRA PIX PIX */,
  ('158bace4-acb3-4058-aaf6-d23fa550da81', 'dd788418-86f9-4148-9ad2-71ce257bc72c', '1f831faa-42a4-4c07-a062-a1aa909dfc9d', '9949bce0-5906-4890-a3f3-435fe857d298', ARRAY['UYU']::text[], 'SANDBOX') /* URY MERCADO_PAGO WALLETS */,
  ('af50035f-35d6-4eed-a4af-7aed12f43371', '715d733d-c541-468e-9889-ba6c65d84188', '1f831faa-42a4-4c07-a062-a1aa909dfc9d', '9949bce0-5906-4890-a3f3-435fe857d298', ARRAY['ARS']::text[], 'SANDBOX') /* ARG MERCADO_PAGO WALLETS */,
  ('e1ba4cd9-9df0-4f6f-bbd3-afcb191035b4', 'da235849-1092-4164-9ac0-d791ab03747a', '1f831faa-42a4-4c07-a062-a1aa909dfc9d', '9949bce0-5906-4890-a3f3-435fe857d298', ARRAY['BRL']::text[], 'SANDBOX') /* BRA MERCADO_PAGO WALLETS */,
  ('7d52414f-1a05-4029-9bba-c75138b8d0d1', '715d733d-c541-468e-9889-ba6c65d84188', '1f831faa-42a4-4c07-a062-a1aa909dfc9d', '342bf330-5d49-4b2a-91fa-ebf64adda1e1', ARRAY['ARS']::text[], 'SANDBOX') /* ARG MERCADO_PAGO CASH */,
  ('d6165324-73e2-4ae0-b68c-15ab0489f6d0', 'da235849-1092-4164-9ac0-d791ab03747a', 'ee8c2e4b-2f74-4de2-8911-73992f1c81d0', '9949bce0-5906-4890-a3f3-435fe857d298', ARRAY['BRL']::text[], 'SANDBOX') /* BRA APPLE_PAY WALLETS */,
  ('219956a6-d514-41e6-9212-953d23c9619a', 'da235849-1092-4164-9ac0-d791ab03747a', '249dccd6-e469-41eb-b1cf-1710d8d393af', '9949bce0-5906-4890-a3f3-435fe857d298', ARRAY['BRL']::text[], 'SANDBOX') /* BRA GOOGLE_WALLET WALLETS */;`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
DROP TABLE merchant_country_processor, merchant_country_configuration, merchant_configuration, api_credential,
  merchant, business_country_processor, business, country_processor, payment_method, payment_instrument_type, country;`);
  }
}
