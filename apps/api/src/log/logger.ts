import { type DestinationStream, type Logger, pino } from 'pino';

/**
 * The server's structured log: one JSON object per line (pino), to standard output unless a
 * destination is given (tests capture it). Today it carries the security log (`security-log.ts`);
 * request logs are meant to join it here, through the same logger and request context.
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
  return pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // `"level":"warn"` rather than pino's numbers: read by people and by log shippers alike.
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED, ...REDACTED.map((key) => `*.${key}`)], censor: '[redacted]' },
    },
    options.destination,
  );
}

/** A logger that writes nothing (the default of servers built without one, as in tests). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
