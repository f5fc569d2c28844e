import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import type { Scope } from './rows';

/** Where a keyset page starts: after (next) or before (previous) a row's sequence number. */
export interface KeysetPosition {
  seq: number;
  direction: 'next' | 'previous';
}

export interface PageRequest {
  scope: Scope;
  limit: number;
  ascending: boolean;
  updatedAtMin?: number | undefined;
  position?: KeysetPosition | undefined;
  /** An extra condition on the base table, with its parameters (written by the store, never by a caller). */
  where?: { sql: string; params: unknown[] } | undefined;
}

export interface Page<Row> {
  rows: Row[];
  hasNext: boolean;
  hasPrevious: boolean;
}

type RowFactory = (values: unknown[]) => Record<string, unknown>;
const factories = new WeakMap<Statement<unknown[]>, RowFactory>();

/** Names a raw row's values with one generated literal (the statement's own column names). */
function rowFactory(statement: Statement<unknown[]>): RowFactory {
  let factory = factories.get(statement);
  if (!factory) {
    const fields = statement
      .columns()
      .map((column, i) => `${JSON.stringify(column.name)}: v[${i}]`);
    // Node-only code (the sandbox's store): a generated constructor, never in the browser bundle.
    factory = new Function('v', `return {${fields.join(', ')}};`) as RowFactory;
    factories.set(statement, factory);
  }
  return factory;
}

/** Raw rows named by the generated literal: cheaper than better-sqlite3's per-property records. */
function rowsOf<Row>(statement: Statement<unknown[]>, params: unknown[]): Row[] {
  const factory = rowFactory(statement);
  return (statement.all(...params) as unknown[][]).map((values) => factory(values) as Row);
}

/** One keyset page over `from` (aliased `t`); seller and mode are in the SQL itself. */
export function keysetPage<Row>(
  db: Db,
  statements: Map<string, Statement<unknown[]>>,
  select: string,
  request: PageRequest,
  seqColumn = 't.seq',
): Page<Row> {
  const conditions = ['t.seller_id = ?', 't.test = ?'];
  const params: unknown[] = [request.scope.sellerId, request.scope.test ? 1 : 0];
  if (request.updatedAtMin !== undefined) {
    conditions.push('t.updated_at >= ?');
    params.push(request.updatedAtMin);
  }
  if (request.where) {
    conditions.push(request.where.sql);
    params.push(...request.where.params);
  }
  const backwards = request.position?.direction === 'previous';
  const scanAscending = request.ascending !== backwards;
  if (request.position) {
    conditions.push(`${seqColumn} ${scanAscending ? '>' : '<'} ?`);
    params.push(request.position.seq);
  }
  const sql = `${select} WHERE ${conditions.join(' AND ')} ORDER BY ${seqColumn} ${
    scanAscending ? 'ASC' : 'DESC'
  } LIMIT ?`;
  params.push(request.limit + 1);
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare<unknown[]>(sql).raw(true);
    statements.set(sql, statement);
  }
  const fetched = rowsOf<Row>(statement, params);
  const more = fetched.length > request.limit;
  const rows = more ? fetched.slice(0, request.limit) : fetched;
  if (backwards) rows.reverse();
  return {
    rows,
    hasNext: backwards ? true : more,
    hasPrevious: backwards ? more : request.position !== undefined,
  };
}
