import { z } from 'zod';

/** Bodies of one value: a count, a message, nothing. */
export const ZCount = z.object({ value: z.number().int() });
export const ZMessage = z.object({ value: z.string() });
export const ZEmpty = z.object({});
