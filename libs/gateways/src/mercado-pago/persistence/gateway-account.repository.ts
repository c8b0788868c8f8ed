import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { GatewayAccountOrmEntity } from './gateway-account.orm-entity';

/** A gateway account row as stored: secrets sealed (the service seals and opens them). */
export type GatewayAccountRow = GatewayAccountOrmEntity;

@Injectable()
export class GatewayAccountRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  find(merchantId: string, provider: 'MERCADO_PAGO', manager: EntityManager = this.dataSource.manager): Promise<GatewayAccountRow | null> {
    return manager.findOneBy(GatewayAccountOrmEntity, { merchantId, provider });
  }

  async put(row: GatewayAccountRow): Promise<void> {
    await this.dataSource.manager.upsert(GatewayAccountOrmEntity, row, ['merchantId', 'provider']);
  }

  /** True when there was one to remove. */
  async remove(merchantId: string, provider: 'MERCADO_PAGO'): Promise<boolean> {
    return Boolean((await this.dataSource.manager.delete(GatewayAccountOrmEntity, { merchantId, provider })).affected);
  }
}
