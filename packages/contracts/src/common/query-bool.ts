import { z } from 'zod';

const BOOL_WORDS = ['true', 'false', 'True', 'False', 'TRUE', 'FALSE', '1', '0'] as const;

/**
 * A boolean that also arrives as a query-string word. `z.coerce.boolean()` would turn
 * "false" into true, so the legacy spellings (`directed=True` from the Python client,
 * `1`/`0`) are decoded explicitly. A codec is a pipe, which trpc-to-openapi accepts.
 */
export const QueryBool = z.codec(z.union([z.boolean(), z.enum(BOOL_WORDS)]), z.boolean(), {
  decode: (value) => (typeof value === 'boolean' ? value : value === '1' || value.toLowerCase() === 'true'),
  encode: (value) => value,
});
