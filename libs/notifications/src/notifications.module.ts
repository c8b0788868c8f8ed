import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WebhookEndpointsModule } from './webhook-endpoints.module';
import { BusinessesModule } from '@pcs/businesses';
import { CatalogModule } from '@pcs/catalog';
import { EventsModule } from '@pcs/events';
import { JobsModule } from '@pcs/jobs';
import { MailModule } from '@pcs/mail';
import { MerchantsModule } from '@pcs/merchants';
import { PaymentLedgerModule } from '@pcs/payments';
import { OutcomeEmails } from './emails/outcome-emails';
import { WebhookEndpointOrmEntity } from './persistence/webhook-endpoint.orm-entity';
import { EventDispatcher } from './webhooks/event-dispatcher';
import { EventLogRepository } from './webhooks/event-log.repository';
import { PostgresEventLogRepository } from './persistence/postgres-event-log.repository';
import { EventLogService } from './webhooks/event-log.service';
import { EventRetention } from './webhooks/event-retention';
import { WebhookDeliverer } from './webhooks/webhook-deliverer';
import { WebhookResolver, WebhookSender } from './webhooks/webhook-sender';

/**
 * What merchants hear (contract §14): webhook endpoints, the delivery of
 * recorded events to them and their log, and outcome emails. Its workers run
 * in every API process that imports it.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpointOrmEntity]),
    BusinessesModule,
    CatalogModule,
    EventsModule,
    JobsModule,
    MailModule,
    MerchantsModule,
    PaymentLedgerModule,
    WebhookEndpointsModule,
  ],
  providers: [
    { provide: EventLogRepository, useClass: PostgresEventLogRepository },
    WebhookResolver,
    WebhookSender,
    EventDispatcher,
    WebhookDeliverer,
    EventLogService,
    EventRetention,
    OutcomeEmails,
  ],
  exports: [WebhookEndpointsModule, EventLogService, EventDispatcher, WebhookDeliverer, EventRetention],
})
export class NotificationsModule {}
