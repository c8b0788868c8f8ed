import { Injectable } from '@nestjs/common';
import { OrderBy, Page, pageOffset, PageRequest, SortBy, TenantScope, Transaction } from '@pcs/kernel';
import { EntityColumns, managerOf, transactionOf } from '@pcs/database';
import { Payin } from '../domain/payin';
import { LedgerFilters, PayinLedgerQueries, PayinSummaryRows } from '../ledger/payin-ledger.queries';
import { ledgerSummary, ledgerTotal } from './payin-ledger-counts';
import { applyLedgerFilters, MAJOR_AMOUNT } from './payin-ledger-filters';
import { payinFromRow } from './payin.mapper';
import { PayinOrmEntity } from './payin.orm-entity';

/** The ledger's reads in PostgreSQL: the page of operation 36 with its exact total, counts, and the overview's figures. */
@Injectable()
export class TypeOrmPayinLedgerQueries extends PayinLedgerQueries {
  /** Operation 36. */
  async page(tx: Transaction, scope: TenantScope, filters: LedgerFilters, page: PageRequest): Promise<Page<Payin>> {
    const manager = managerOf(tx);
    const query = manager.createQueryBuilder(PayinOrmEntity, 'p');
    applyLedgerFilters(query, scope, filters);
    const direction = filters.order ?? OrderBy.DESC;
    if (filters.sort === SortBy.AMOUNT) {
      if (filters.currency) query.orderBy('p.amount', direction);
      else query.orderBy(MAJOR_AMOUNT, direction);
    } else if (filters.sort === SortBy.STATUS) {
      query.orderBy('p.status', direction);
    }
    query
      .addOrderBy('p.created_at', filters.sort === undefined || filters.sort === SortBy.DATE ? direction : 'DESC')
      .addOrderBy('p.transaction_id', 'ASC');
    // The total rides along with the page: one round trip (a page past the end counts on its own).
    const total = ledgerTotal(manager, scope, filters);
    query.addSelect(`(${total.sql})`, 'ledger_total').setParameters(total.parameters);
    // The rows turned into entities by the columns' own conversions (EntityColumns), not by TypeORM's general hydration of
    // raw results, which was the largest part of the ledger's ORM time; the statement is the builder's, unchanged.
    const [sql, values] = query.offset(pageOffset(page)).limit(page.limit).getQueryAndParameters();
    const raw = await manager.query<({ ledger_total: string } & Record<string, unknown>)[]>(sql, values);
    const columns = new EntityColumns(manager, PayinOrmEntity, 'p_');
    const counted = raw.length > 0 ? Number(raw[0].ledger_total) : await this.count(transactionOf(manager), scope, filters);
    return { items: raw.map((row) => payinFromRow(columns.from(row)!)), page: page.page, limit: page.limit, total: counted };
  }

  /**
   * The exact number of payins the filters select. Without amount bounds,
   * whole UTC days come from payin_daily_count (kept by triggers with every
   * payin write) and only the part of a day a date-time bound cuts is counted
   * row by row; amount bounds in one currency without dates sum whole amount
   * buckets of payin_amount_count and count the two cut ones; other amount
   * bounds (no currency, or with dates) and one payment's rows count the
   * rows (served by the currency-amount and date indexes). One statement: one
   * snapshot.
   */
  async count(tx: Transaction, scope: TenantScope, f: LedgerFilters): Promise<number> {
    const manager = managerOf(tx);
    const { sql, parameters } = ledgerTotal(manager, scope, f);
    const [query, values] = manager.connection.driver.escapeQueryWithParameters(`SELECT (${sql}) AS total`, parameters, {});
    const [{ total }] = await manager.query<{ total: string }[]>(query, values);
    return Number(total);
  }

  /**
   * The overview's figures, computed by PostgreSQL in one statement per
   * grouping (served by the business/merchant date indexes): bigint sums of
   * minor units, never floats.
   */
  summary(tx: Transaction, scope: TenantScope, from: Date, until: Date): Promise<PayinSummaryRows> {
    const manager = managerOf(tx);
    return ledgerSummary(manager, scope, from, until);
  }
}
