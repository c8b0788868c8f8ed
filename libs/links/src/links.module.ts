import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '@pcs/events';
import { CatalogModule } from '@pcs/catalog';
import { MailModule } from '@pcs/mail';
import { MerchantsModule } from '@pcs/merchants';
import { LinkRepository } from './link.repository';
import { LinkService } from './link.service';
import { LinkCountryProcessorOrmEntity, LinkOrmEntity } from './persistence/link.orm-entity';
import { TypeOrmLinkRepository } from './persistence/typeorm-link.repository';

/** Payment links (operations 24, 29–35). */
@Module({
  imports: [
    TypeOrmModule.forFeature([LinkOrmEntity, LinkCountryProcessorOrmEntity]),
    CatalogModule,
    MerchantsModule,
    MailModule,
    EventsModule,
  ],
  providers: [{ provide: LinkRepository, useClass: TypeOrmLinkRepository }, LinkService],
  exports: [LinkService],
})
export class LinksModule {}
