import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pcs/catalog';
import { RuntimeSettings } from '@pcs/config';
import { BusinessRepository, CredentialRepository } from './business.repository';
import { BusinessService } from './business.service';
import { TypeOrmBusinessRepository, TypeOrmCredentialRepository } from './persistence/typeorm-business.repository';
import { CredentialService } from './credential.service';
import { SecretBox } from '@pcs/config';
import { ApiCredentialOrmEntity } from './persistence/api-credential.orm-entity';
import { BusinessOrmEntity } from './persistence/business.orm-entity';
import { BusinessCountryProcessorOrmEntity } from './persistence/business-country-processor.orm-entity';

@Module({
  imports: [TypeOrmModule.forFeature([BusinessOrmEntity, BusinessCountryProcessorOrmEntity, ApiCredentialOrmEntity]), CatalogModule],
  providers: [
    { provide: BusinessRepository, useClass: TypeOrmBusinessRepository },
    { provide: CredentialRepository, useClass: TypeOrmCredentialRepository },
    BusinessService,
    CredentialService,
    { provide: SecretBox, inject: [RuntimeSettings], useFactory: (settings: RuntimeSettings) => settings.secretBox() },
  ],
  exports: [BusinessService, CredentialService, SecretBox],
})
export class BusinessesModule {}
