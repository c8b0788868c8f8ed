import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations';

/**
 * For the TypeORM CLI (`npx typeorm -d dist/libs/database/src/data-source.js
 * migration:show`). The service itself migrates through migrateDatabase().
 */
export default new DataSource({
  type: 'postgres',
  url: process.env.DATABASE_URL,
  migrations: MIGRATIONS,
  synchronize: false,
});
