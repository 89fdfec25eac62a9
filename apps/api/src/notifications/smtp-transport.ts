import type { EmailTransport, OutgoingMail } from '@trackline/domain';
import nodemailer from 'nodemailer';

/**
 * E-mail through Nodemailer's SMTP transport, pooled (a few connections kept open, many messages
 * each): a thousand messages go out in seconds instead of a connection each. The Message-ID is
 * the one the outbox made for the message, never a new one: resending after a crash sends the same.
 */
export function createSmtpTransport(
  url: string,
  from: string,
  baseUrl: string,
): EmailTransport & { close(): void } {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 4,
    maxMessages: 10_000,
  } as never);
  return {
    baseUrl,
    async send(mail: OutgoingMail) {
      await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        ...(mail.inReplyTo ? { inReplyTo: mail.inReplyTo } : {}),
        ...(mail.references ? { references: mail.references } : {}),
        headers: mail.headers,
      });
    },
    close() {
      transporter.close();
    },
  };
}
