import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * The real counterparts of the notification worker in tests: an SMTP server that speaks the
 * protocol (Nodemailer's `smtp-server`, in this process) and an HTTP receiver that verifies
 * webhook signatures. Both record what arrives by its idempotency key (the Message-ID, the
 * delivery id), as a receiver that deduplicates would, and count every arrival.
 */
export type TestSmtp = {
  url: string;
  /** Messages by Message-ID (the first of each). */
  messages: Map<string, ParsedMail>;
  /** Every accepted DATA, duplicates included: Message-IDs in arrival order. */
  arrivals: string[];
  /** Waits until `count` distinct messages arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

export async function startSmtpServer(): Promise<TestSmtp> {
  const messages = new Map<string, ParsedMail>();
  const arrivals: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const id = mail.messageId ?? `(none ${arrivals.length})`;
          arrivals.push(id);
          if (!messages.has(id)) messages.set(id, mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // A client killed mid-session (the crash drill) resets its connection: not an error of the test.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    arrivals,
    waitFor: (count, timeoutMs = 30_000) =>
      waitUntil(
        () => messages.size >= count,
        timeoutMs,
        () => `${messages.size} of ${count} messages`,
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type ReceivedDelivery = {
  id: string;
  event: string;
  timestamp: number;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the payload's JSON
  payload: any;
  path: string;
};

export type TestReceiver = {
  url: string;
  /** Verified deliveries by X-Trackline-Delivery (the first of each). */
  deliveries: Map<string, ReceivedDelivery>;
  /** Every POST with a valid signature, in order (redeliveries and resends included). */
  arrivals: ReceivedDelivery[];
  /** POSTs whose signature did not verify. */
  refused: number;
  /** The status the next POST to a path is answered with (default 204). */
  answer: (path: string) => number;
  setAnswer(fn: (path: string) => number): void;
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

/** Verifies `X-Trackline-Signature` over `<timestamp>.<raw body>` with the hook's secret, in constant time. */
export function verifySignature(secret: string, req: IncomingMessage, body: string): boolean {
  const timestamp = String(req.headers['x-trackline-timestamp'] ?? '');
  const given = String(req.headers['x-trackline-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return /^\d+$/.test(timestamp) && a.length === b.length && timingSafeEqual(a, b);
}

/** A webhook receiver on 127.0.0.1; `secretOf(path)` gives the secret of the hook posting there. */
export async function startReceiver(secretOf: (path: string) => string | undefined): Promise<TestReceiver> {
  const receiver: TestReceiver = {
    url: '',
    deliveries: new Map(),
    arrivals: [],
    refused: 0,
    answer: () => 204,
    setAnswer(fn) {
      receiver.answer = fn;
    },
    waitFor: (count, timeoutMs = 30_000) =>
      waitUntil(
        () => receiver.deliveries.size >= count,
        timeoutMs,
        () => `${receiver.deliveries.size} of ${count} deliveries`,
      ),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const secret = secretOf(path);
      if (req.method !== 'POST' || !secret || !verifySignature(secret, req, body)) {
        receiver.refused++;
        res.statusCode = 401;
        res.end();
        return;
      }
      const status = receiver.answer(path);
      if (status >= 200 && status < 300) {
        const delivery: ReceivedDelivery = {
          id: String(req.headers['x-trackline-delivery']),
          event: String(req.headers['x-trackline-event']),
          timestamp: Number(req.headers['x-trackline-timestamp']),
          body,
          payload: JSON.parse(body),
          path,
        };
        receiver.arrivals.push(delivery);
        if (!receiver.deliveries.has(delivery.id)) receiver.deliveries.set(delivery.id, delivery);
      }
      res.statusCode = status;
      if (status >= 300 && status < 400) res.setHeader('Location', `${receiver.url}/elsewhere`);
      res.end();
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

export async function waitUntil(done: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out waiting: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
