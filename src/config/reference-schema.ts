import { z } from 'zod';

/** `game.references`: columns that hold another table's key with no foreign key, as `'table.column'` to `'table'` or `'table.column'`. */
export const referencesSchema = z
  .record(
    z.string().regex(/^.+\..+$/, "a reference is named 'table.column'"),
    z.string().min(1, 'name the table (or table.column) the column refers to'),
  )
  .optional()
  .describe(
    "Columns holding another row's key with no foreign key: 'table.column' to 'table' (its primary key) or 'table.column'; owned, sliced and remapped like foreign keys. A key inside a json or jsonb column: 'table.column->key->key' (sliced and remapped; it makes no row owned).",
  );

/** `game.turnColumns`: owned tables with no foreign-key path to the turns table, sliced by their own turn column. */
export const turnColumnsSchema = z
  .record(z.string().min(1), z.string().min(1, 'a column name is required'))
  .optional()
  .describe(
    'Owned tables with no foreign-key path to the turns table, to their integer turn column: rows whose value is N or more are left out of a fixture for turn N.',
  );
