import type { Doc } from './schema.js';
import type { Session } from './session.js';

// The repositories a handler reads and changes the sandbox through, one per table: `Records` for
// those keyed by id (buyers, cards, plans, …), `Log` for the lists that only grow (transactions,
// receivables, events, …). What they give back are plain objects of the session: a change to one
// is saved with the change it is part of (session.ts). Looking records up by a column and
// listing them page by page is in queries.ts.

/** A table of the session, by name. */
abstract class Repository {
  constructor(
    protected readonly session: Session,
    protected readonly table: string,
  ) {}
}

/** The records of a table keyed by id. */
export class Records<T> extends Repository {
  get(key: string): T | undefined {
    return this.session.item(this.table, key) as T | undefined;
  }

  /** Adds a record, or replaces one whole. */
  put(key: string, record: T): void {
    this.session.put(this.table, key, record as Doc);
  }

  remove(key: string): void {
    this.session.put(this.table, key, undefined);
  }

  /** Every key, in the order the records were added: for the small tables only. */
  keys(): string[] {
    return this.session.keys(this.table);
  }

  /** Every record, in the order they were added: for the small tables only. */
  all(): T[] {
    return this.keys().map((key) => this.get(key) as T);
  }
}

/** A list that only grows: each record stays at the position it was added at. */
export class Log<T> extends Repository {
  at(position: number): T | undefined {
    return this.session.item(this.table, String(position)) as T | undefined;
  }

  get length(): number {
    return this.session.length(this.table);
  }

  /** Adds a record at the end; returns its position. */
  append(record: T): number {
    return this.session.append(this.table, record as Doc);
  }
}
