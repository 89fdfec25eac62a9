import { type DestinationStream, type Logger, pino } from 'pino';

/**
 * The server's structured log: one JSON object per line (pino), to standard output unless a
 * destination is given (tests capture it): the request log (`request-log.ts`), errors with their
 * request's context and the security log (`security-log.ts`), through one logger.
 */
export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Field names never written, whatever a caller passes by mistake (defence in depth: the security
 * log itself names what it writes and never takes a secret).
 */
const REDACTED = [
  'password',
  'newPassword',
  'secret',
  'token',
  'authorization',
  'cookie',
  'headers',
  'query',
];

export function createLogger(options: { level?: LogLevel; destination?: DestinationStream } = {}): Logger {
  // Standard output is written asynchronously: a line waiting for a slow reader (a pipe, a log
  // shipper) never blocks a request, and lines logged while a write is in flight go out together
  // (a synchronous write per request line was 5% of a computed read). pino flushes what is left
  // when the process exits.
  return pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // `"level":"warn"` rather than pino's numbers: read by people and by log shippers alike.
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED, ...REDACTED.map((key) => `*.${key}`)], censor: '[redacted]' },
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** A logger that writes nothing (the default of servers built without one, as in tests). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
