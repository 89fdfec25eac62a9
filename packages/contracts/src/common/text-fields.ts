import { z } from 'zod';
import { hasControlCharacters } from './text-checks.js';

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
