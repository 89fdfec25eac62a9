import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Em, type Orm, switchEmailOff, verifyUnsubscribeToken } from '@trackline/domain';

/** The one-click unsubscribe page's policy: nothing but this page and its own form. */
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function page(res: ServerResponse, status: number, title: string, body: string) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html;charset=UTF-8');
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.end(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      `<title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:40em;margin:3em auto">` +
      `<main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
  );
}

/** Reads at most a small form body (`List-Unsubscribe=One-Click`); its content changes nothing. */
async function drain(req: IncomingMessage): Promise<void> {
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 4096) break;
  }
}

/**
 * `/unsubscribe?token=…`, the link in every notification e-mail (no login: the signed token is the
 * proof). GET shows a page with one button (a link scanner's GET changes nothing); POST, from that
 * button or from a mail client's one-click unsubscribe (RFC 8058, `List-Unsubscribe-Post`),
 * switches the user's e-mail off. A bad token is 400 and changes nothing.
 */
export async function handleUnsubscribe(orm: Orm, req: IncomingMessage, res: ServerResponse, url: URL) {
  const token = url.searchParams.get('token') ?? '';
  const em = orm.em.fork() as Em;
  const userId = await verifyUnsubscribeToken(em, token);
  if (req.method === 'POST') await drain(req);
  if (userId === null)
    return page(
      res,
      400,
      'This unsubscribe link is not valid',
      '<p>Use the link of a recent message, or change your notification settings in Trackline.</p>',
    );
  if (req.method === 'POST') {
    await switchEmailOff(em, userId);
    return page(
      res,
      200,
      'Unsubscribed',
      '<p>You will receive no more notification e-mail. You can switch it on again in your notification settings.</p>',
    );
  }
  return page(
    res,
    200,
    'Stop notification e-mail?',
    `<form method="post" action="/unsubscribe?token=${encodeURIComponent(token)}"><p>You will receive no more notification e-mail from Trackline (your inbox keeps working).</p><button type="submit">Unsubscribe</button></form>`,
  );
}
