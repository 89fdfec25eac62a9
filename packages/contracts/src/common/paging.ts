import { z } from 'zod';
import { MAX_PAGE_OFFSET, MAX_PAGE_SIZE, MAX_QUERY_LENGTH } from './limits.js';

/** A page's offset (`after`, `start`): 0 to MAX_PAGE_OFFSET. */
export const ZPageOffset = z
  .number()
  .int()
  .min(0, 'must be at least 0')
  .max(MAX_PAGE_OFFSET, `must be at most ${MAX_PAGE_OFFSET}`);
/** A page's size (`max`) where larger pages are refused: 1 to MAX_PAGE_SIZE. */
export const ZPageSize = z
  .number()
  .int()
  .min(1, 'must be at least 1')
  .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`);
/** A search query's text (`filter`, `query`). */
export const ZQueryText = z.string().max(MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`);
