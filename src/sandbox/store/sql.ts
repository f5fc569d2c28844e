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

/** A scope as SQL parameters: seller id, then the 0/1 test flag. */
export const scopeParams = (scope: Scope) => [scope.sellerId, scope.test ? 1 : 0] as const;

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

/** The statements a store builds from data (inserts, patches, pages), each prepared once. */
export function sqlOf(db: Db) {
  const statements = new Map<string, Statement<unknown[]>>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare<unknown[]>(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    /** A query for one row (undefined when none), prepared once; most take an id. */
    one<Row, Params extends unknown[] = [id: string]>(text: string) {
      const statement = db.prepare<unknown[]>(text);
      return (...params: Params) => statement.get(...params) as Row | undefined;
    },
    /** A query for every row, prepared once. */
    all<Row, Params extends unknown[] = [id: string]>(text: string) {
      const statement = db.prepare<unknown[]>(text);
      return (...params: Params) => statement.all(...params) as Row[];
    },
    /** A change, prepared once. */
    run<Params extends unknown[] = [id: string]>(text: string) {
      const statement = db.prepare<unknown[]>(text);
      return (...params: Params): void => void statement.run(...params);
    },

    /** INSERT of the row's own columns (the table's defaults fill the rest). */
    insert(table: string, row: object): void {
      const columns = Object.keys(row);
      const values = columns.map((column) => `@${column}`).join(', ');
      prepared(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values})`).run(row);
    },

    /** UPDATE of the patch's columns by id; a column outside `updatable` is a programming error. */
    update<Row>(table: string, updatable: ReadonlySet<keyof Row>, id: string, patch: Partial<Row>) {
      const columns = Object.keys(patch) as (keyof Row & string)[];
      if (columns.length === 0) return;
      for (const column of columns) {
        if (!updatable.has(column)) throw new Error(`${table} column ${column} is not updatable`);
      }
      const set = columns.map((column) => `${column} = @${column}`).join(', ');
      prepared(`UPDATE ${table} SET ${set} WHERE id = @id`).run({ ...patch, id });
    },

    /** One keyset page over `select` (base table aliased `t`); seller and mode are in the SQL. */
    page<Row>(select: string, request: PageRequest, seqColumn = 't.seq'): Page<Row> {
      const conditions = ['t.seller_id = ?', 't.test = ?'];
      const params: unknown[] = [...scopeParams(request.scope)];
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
      const order = `${seqColumn} ${scanAscending ? 'ASC' : 'DESC'}`;
      params.push(request.limit + 1);
      const statement = prepared(
        `${select} WHERE ${conditions.join(' AND ')} ORDER BY ${order} LIMIT ?`,
      ).raw(true);
      // Raw rows named by the generated literal: cheaper than better-sqlite3's per-property records.
      const factory = rowFactory(statement);
      const fetched = (statement.all(...params) as unknown[][]).map((v) => factory(v) as Row);
      const more = fetched.length > request.limit;
      const rows = more ? fetched.slice(0, request.limit) : fetched;
      if (backwards) rows.reverse();
      return {
        rows,
        hasNext: backwards ? true : more,
        hasPrevious: backwards ? more : request.position !== undefined,
      };
    },
  };
}
