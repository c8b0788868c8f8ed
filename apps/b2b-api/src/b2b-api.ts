import { NestExpressApplication } from '@nestjs/platform-express';
import { RuntimeSettings } from '@pcs/config';
import { ApiDescription, createHttpApp } from '@pcs/http';
import { B2bApiModule } from './b2b-api.module';

export const B2B_API: ApiDescription = {
  area: 'B2B',
  title: 'B2B API',
  description:
    'Countries and payment methods a merchant can use (B1–B4), and payment intents (B5–B7): B6 answers with ' +
    '`nextAction.redirect.reference`, a hosted checkout served by this API; the payer picks a method, pays at the gateway, ' +
    'and returns to your `redirectUrl` with `paymentIntentId`, `externalReference`, `status`, `timestamp` and an HMAC-SHA256 ' +
    '`signature` keyed with the API secret that created the intent (see docs/decisions.md, the B2B checkout). Confirm the outcome with B7 before shipping. ' +
    'The same payment intent is visible and refundable through the payins API. ' +
    'Every request carries `api-key` and `signature` (see docs/integration.md).',
  version: '0.0.1',
  localUrl: 'http://localhost:3001',
};

export function createB2bApi(settings: RuntimeSettings, logLevel?: string): Promise<NestExpressApplication> {
  return createHttpApp(B2bApiModule.forRoot(settings, logLevel), B2B_API);
}
