// Rows of a prepared read decoded by a plan made once (see `made` in client.ts). drizzle's own
// mapper asks, for every column of every row, what kind of field it is (`is()` walks the
// prototype chain): 7% of a 25-row users page. The plan asks once per statement; each row then
// does what drizzle's `mapResultRow` does with the answers, in the same order.
import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}
interface SelectedField {
  path: string[];
  field: unknown;
}
/** As drizzle's sessions call a custom mapper: the rows, and libSQL's value normaliser. */
export type RowsMapper = (rows: ArrayLike<unknown>[], normalize?: (value: unknown) => unknown) => unknown;

interface Step {
  path: string[];
  decoder: Decoder;
  /** The table of a joined table's column (`{ user: users }` style), for drizzle's null rule. */
  table: string | null;
}

const decoded = (sql: unknown) => (sql as { decoder: Decoder }).decoder;

function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return decoded(field);
  if (is(field, Subquery)) return decoded((field._ as unknown as { sql: SQL }).sql);
  return decoded((field as SQL.Aliased).sql);
}

export function rowsMapper(fields: SelectedField[], joins: Record<string, boolean> | undefined, method: string): RowsMapper {
  const steps: Step[] = fields.map(({ path, field }) => ({
    path,
    decoder: decoderOf(field),
    table: joins && is(field, Column) && path.length === 2 ? getTableName(field.table) : null,
  }));
  const one = (row: ArrayLike<unknown>, normalize?: (value: unknown) => unknown) => {
    const result: Record<string, unknown> = {};
    const nullify: Record<string, string | false> = {};
    for (let i = 0; i < steps.length; i++) {
      const { path, decoder, table } = steps[i]!;
      const raw = normalize ? normalize(row[i]) : row[i];
      const value = raw === null ? null : decoder.mapFromDriverValue(raw);
      let node = result;
      for (let j = 0; j < path.length - 1; j++) node = (node[path[j]!] ??= {}) as Record<string, unknown>;
      node[path[path.length - 1]!] = value;
      if (table !== null) {
        const object = path[0]!;
        if (!(object in nullify)) nullify[object] = value === null ? table : false;
        else if (typeof nullify[object] === 'string' && nullify[object] !== table) nullify[object] = false;
      }
    }
    // A left-joined table whose columns all came back null is the join's null, as drizzle has it.
    if (joins) for (const [object, table] of Object.entries(nullify)) if (typeof table === 'string' && !joins[table]) result[object] = null;
    return result;
  };
  return method === 'get'
    ? (rows, normalize) => (rows[0] === undefined ? undefined : one(rows[0], normalize))
    : (rows, normalize) => rows.map((row) => one(row, normalize));
}
