// SCIM filters (RFC 7644 section 3.4.2.2) as SQL conditions. The grammar is scim2-parse-filter's
// (the parser scim-patch uses too; no hand-written parser here); this file only walks its tree and
// asks the resource's own table of attributes (users.ts, groups.ts) for the SQL of each comparison,
// so every supported comparison is a bound parameter against an indexed column. What the table
// does not know, and every operator but `eq`, `and` and `or`, is `invalidFilter`; more than
// MAX_FILTER_TERMS comparisons is `tooMany`. Attribute names are case-insensitive (RFC 7643 2.1).
import { sql, type SQL } from 'drizzle-orm';
import { parse, type Filter } from 'scim2-parse-filter';
import { MAX_FILTER_TERMS } from './discovery';
import { invalidFilter, ScimError } from './errors';

export type CompValue = string | number | boolean | null;

/** SQL for `<path> eq <value>` (path lower-cased, schema URN included when given), or undefined: unsupported. */
export type Comparison = (path: string, value: CompValue) => SQL | undefined;

export interface FilterTable {
  compare: Comparison;
  /** `attr[<filter>]`: the filter inside applies to the sub-attributes of `attr` (lower-cased). */
  valuePath?: (attr: string) => Comparison | undefined;
}

function leaves(f: Filter): number {
  switch (f.op) {
    case 'and':
    case 'or':
      return f.filters.reduce((n, x) => n + leaves(x), 0);
    case '[]':
      return leaves(f.valFilter);
    case 'not':
      return leaves(f.filter);
    default:
      return 1;
  }
}

function toSql(f: Filter, compare: Comparison, table: FilterTable): SQL {
  switch (f.op) {
    case 'and':
    case 'or': {
      const parts = f.filters.map((x) => toSql(x, compare, table));
      return sql`(${sql.join(parts, f.op === 'and' ? sql` AND ` : sql` OR `)})`;
    }
    case 'eq': {
      const path = f.attrPath.toLowerCase();
      const out = compare(path, f.compValue);
      if (!out) throw invalidFilter(`filtering on "${f.attrPath}" is not supported (see /Schemas and ServiceProviderConfig)`);
      return out;
    }
    case '[]': {
      const inner = table.valuePath?.(f.attrPath.toLowerCase());
      if (!inner) throw invalidFilter(`a value filter on "${f.attrPath}" is not supported`);
      return toSql(f.valFilter, inner, table);
    }
    default:
      throw invalidFilter(`the operator "${f.op}" is not supported: only eq, and, or`);
  }
}

/** The SQL condition of a filter's text over `table`'s attributes. */
export function compileFilter(text: string, table: FilterTable): SQL {
  let tree: Filter;
  try {
    tree = parse(text);
  } catch (e) {
    throw invalidFilter(`the filter cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (leaves(tree) > MAX_FILTER_TERMS) throw new ScimError(400, `at most ${MAX_FILTER_TERMS} comparisons per filter`, 'tooMany');
  return toSql(tree, table.compare, table);
}

/** A comparison value as the text an attribute of type string compares with. */
export function text(value: CompValue): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}

/** A resource id: digits only (anything else matches nothing). */
export function idValue(value: CompValue): number | null {
  const s = text(value);
  return s !== undefined && /^[1-9]\d{0,15}$/.test(s) ? Number(s) : null;
}

/** A boolean as SCIM clients send it (Entra: "True"/"False"). */
export function boolValue(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  return undefined;
}

export const NOTHING = sql`0`;
export const EVERYTHING = sql`1`;
