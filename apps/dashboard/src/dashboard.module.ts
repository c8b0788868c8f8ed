import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { auditKeyOf, DashboardIdentity, dashboardIdentityOn } from '@pcs/dashboard-identity';
import { masterKeyRing, SecretBox } from '@pcs/config';
import { DatabaseModule } from '@pcs/database';
import { DataSource } from 'typeorm';
import { AuditController } from './audit.controller';
import { LinksController } from './links.controller';
import { MerchantsController } from './merchants.controller';
import { PayersController } from './payers.controller';
import { TeamController } from './team.controller';
import { WebhooksController } from './webhooks.controller';
import { AuthController } from './auth.controller';
import { DisputesController } from './disputes.controller';
import { SubscriptionsController } from './subscriptions.controller';
import { HealthController } from './health.controller';
import { Housekeeping } from './housekeeping';
import { OverviewController } from './overview.controller';
import { PayinsApi } from './payins-api';
import { PaymentsController } from './payments.controller';
import { BalanceController, PayoutsController, ReconciliationController } from './settlement.controller';
import { DashboardSettings } from './settings';
import { PageErrors, SessionGuard } from './web';

/**
 * The operations dashboard (contract §18): its own people, sessions and audit
 * log on its own tables, and payments only through the payins API.
 */
@Module({})
export class DashboardModule {
  static forRoot(settings: DashboardSettings): DynamicModule {
    const [current, ...earlier] = masterKeyRing(settings.secretsMasterKey, [
      settings.secretsMasterKeyPrevious,
      ...(settings.earlierMasterKeys ?? []),
    ]);
    return {
      module: DashboardModule,
      imports: [DatabaseModule.forRoot({ url: settings.databaseUrl, poolSize: 5, sessionUrl: settings.sessionDatabaseUrl })],
      controllers: [
        AuthController,
        OverviewController,
        PaymentsController,
        BalanceController,
        PayoutsController,
        DisputesController,
        SubscriptionsController,
        ReconciliationController,
        LinksController,
        PayersController,
        WebhooksController,
        MerchantsController,
        TeamController,
        AuditController,
        HealthController,
      ],
      providers: [
        { provide: DashboardSettings, useValue: settings },
        { provide: PayinsApi, useFactory: () => new PayinsApi(settings) },
        {
          provide: DashboardIdentity,
          useFactory: (dataSource: DataSource) =>
            dashboardIdentityOn(dataSource, new SecretBox(current, earlier), {
              idleMinutes: settings.idleMinutes,
              auditKeys: [current, ...earlier].map(auditKeyOf),
            }),
          inject: [getDataSourceToken()],
        },
        Housekeeping,
        { provide: APP_GUARD, useClass: SessionGuard },
        { provide: APP_FILTER, useClass: PageErrors },
      ],
    };
  }
}
