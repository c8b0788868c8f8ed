import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BusinessesModule } from '@pcs/businesses';
import { MerchantsModule } from '@pcs/merchants';
import { TypeOrmWebhookEndpointRepository } from './persistence/typeorm-webhook-endpoint.repository';
import { WebhookEndpointOrmEntity } from './persistence/webhook-endpoint.orm-entity';
import { WebhookEndpointRepository } from './webhooks/webhook-endpoint.repository';
import { WebhookEndpointService } from './webhooks/webhook-endpoint.service';

/**
 * Webhook endpoints alone, without the delivery workers: for the operator's
 * commands (the master key's rotation reseals their secrets through the
 * service); NotificationsModule imports and exports it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpointOrmEntity]), BusinessesModule, MerchantsModule],
  providers: [{ provide: WebhookEndpointRepository, useClass: TypeOrmWebhookEndpointRepository }, WebhookEndpointService],
  exports: [WebhookEndpointRepository, WebhookEndpointService],
})
export class WebhookEndpointsModule {}
