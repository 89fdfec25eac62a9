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

// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Whether text holds a control character (never meaningful in names, logins or keys). */
export const hasControlCharacters = (value: string): boolean => CONTROL_CHARS.test(value);

/** A UTF-16 surrogate without its partner: ill-formed Unicode (no UTF-8 form, `encodeURIComponent` throws). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether text is ill-formed Unicode (holds a lone surrogate); the API refuses such input. */
export const hasLoneSurrogates = (value: string): boolean => LONE_SURROGATE.test(value);

/** A trimmed, non-empty name of at most `max` characters. */
export const name = (max = 100) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((v) => !hasControlCharacters(v), 'must not contain control characters');

/** Optional free text: trimmed, empty becomes undefined. */
export const optionalText = (max = 4000) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .transform((v) => v.trim())
    .optional();

export const ZCount = z.object({ value: z.number().int() });
export const ZMessage = z.object({ value: z.string() });
export const ZEmpty = z.object({});
