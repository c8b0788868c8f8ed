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

  /** The merchants with an account at the provider. */
  async merchantsOf(provider: 'MERCADO_PAGO'): Promise<string[]> {
    const rows = await this.dataSource.manager.find(GatewayAccountOrmEntity, {
      where: { provider },
      select: { merchantId: true },
      order: { merchantId: 'ASC' },
    });
    return rows.map((row) => row.merchantId);
  }

  async put(row: GatewayAccountRow): Promise<void> {
    await this.dataSource.manager.upsert(GatewayAccountOrmEntity, row, ['merchantId', 'provider']);
  }

  /** True when there was one to remove. */
  async remove(merchantId: string, provider: 'MERCADO_PAGO'): Promise<boolean> {
    return Boolean((await this.dataSource.manager.delete(GatewayAccountOrmEntity, { merchantId, provider })).affected);
  }
}
