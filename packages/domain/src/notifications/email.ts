import type { FieldChange } from '../issues/history/history.js';
import type { RenderedIssue, RenderedPart } from './render.js';

/** An e-mail as the transport takes it (Nodemailer's message fields, in `apps/api`). */
export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Deterministic per message: the idempotency key a resend after a crash carries again. */
  messageId: string;
  inReplyTo?: string | undefined;
  references?: string | undefined;
  headers: Record<string, string>;
};

/**
 * The one template both bodies come from: a message is a title, one section per issue (a
 * heading with its link, then one block per change: who, when, and lines), and a footer. `toText`
 * and `toHtml` write the same document; only the HTML escapes.
 */
type Line = { label?: string; text: string; quote?: boolean };
type Block = { heading: string; lines: Line[] };
type Section = { title: string; url: string; blocks: Block[] };
export type MailDocument = { title: string; sections: Section[]; footer: Line[] };

const values = (v: string[]) => (v.length ? v.join(', ') : '(empty)');
const LONG_FIELDS = new Set(['description']);

function fieldLines(fields: FieldChange[]): Line[] {
  return fields.map((f) =>
    LONG_FIELDS.has(f.name)
      ? { label: f.name, text: f.newValues.join('\n') || '(empty)', quote: true }
      : { label: f.name, text: `${values(f.oldValues)} → ${values(f.newValues)}` },
  );
}

function partLines(part: RenderedPart): Line[] {
  switch (part.kind) {
    case 'issue.created':
      return [
        { label: 'created', text: part.summary },
        ...(part.description ? [{ text: part.description, quote: true }] : []),
      ];
    case 'issue.changed':
      return fieldLines(part.fields);
    case 'issue.visibility':
      return [{ label: 'visible to', text: `${part.from ?? 'everyone'} → ${part.to ?? 'everyone'}` }];
    case 'comment.added':
    case 'comment.updated':
      return [
        {
          label: part.kind === 'comment.added' ? 'comment' : 'comment edited',
          text: part.group ? `(visible to ${part.group})` : '',
        },
        { text: part.text, quote: true },
      ];
    case 'attachment.added':
      return [{ label: 'attached', text: part.name }];
    case 'link.added':
      return [{ label: 'link added', text: `${part.phrase} ${part.issue} ${part.summary}` }];
    case 'link.removed':
      return [{ label: 'link removed', text: `${part.phrase} ${part.issue} ${part.summary}` }];
    case 'tag.added':
      return [{ label: 'tagged', text: part.tag }];
    case 'tag.removed':
      return [{ label: 'untagged', text: part.tag }];
  }
}

const time = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 16)} UTC`;

/** The document of a message about these issues (each rendered for the recipient). */
export function mailDocument(
  issues: RenderedIssue[],
  baseUrl: string,
  settingsUrl: string,
  unsubscribeUrl: string,
  digest: boolean,
): MailDocument {
  const sections = issues.map((r) => ({
    title:
      r.access === 'lost' ? `${r.issue.id} is no longer visible to you` : `${r.issue.id} ${r.issue.summary}`,
    url: `${baseUrl}/issue/${encodeURIComponent(r.issue.id)}`,
    blocks: r.changes.map((c) => ({
      heading: `${c.author.fullName} (${c.author.login}), ${time(c.at)}`,
      lines: c.parts.flatMap(partLines),
    })),
  }));
  const first = issues[0];
  const title = digest
    ? `Trackline: ${issues.length} issue${issues.length === 1 ? '' : 's'} changed`
    : first?.access === 'lost'
      ? `[${first.issue.id}] no longer visible to you`
      : `[${first?.issue.id ?? ''}] ${first?.issue.summary ?? ''}`;
  return {
    title,
    sections,
    footer: [
      {
        text: 'You receive this because you watch, reported, are assigned to or subscribed to these issues.',
      },
      { label: 'Settings', text: settingsUrl },
      { label: 'Unsubscribe from e-mail', text: unsubscribeUrl },
    ],
  };
}

const lineText = (l: Line) =>
  l.quote
    ? l.text
        .split('\n')
        .map((t) => `    ${t}`)
        .join('\n')
    : `${l.label ? `${l.label}: ` : ''}${l.text}`;

export function toText(doc: MailDocument): string {
  const out: string[] = [];
  for (const s of doc.sections) {
    out.push(s.title, s.url, '');
    for (const b of s.blocks) {
      out.push(b.heading);
      for (const l of b.lines) out.push(lineText(l));
      out.push('');
    }
  }
  out.push('-- ');
  for (const l of doc.footer) out.push(lineText(l));
  return `${out.join('\n')}\n`;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function lineHtml(l: Line): string {
  if (l.quote)
    return `<blockquote style="white-space:pre-wrap;margin:4px 0 4px 12px">${escapeHtml(l.text)}</blockquote>`;
  const label = l.label ? `<strong>${escapeHtml(l.label)}:</strong> ` : '';
  const text = /^https?:\/\//.test(l.text)
    ? `<a href="${escapeHtml(l.text)}">${escapeHtml(l.text)}</a>`
    : escapeHtml(l.text);
  return `<div>${label}${text}</div>`;
}

export function toHtml(doc: MailDocument): string {
  const sections = doc.sections
    .map(
      (s) =>
        `<h2 style="font-size:16px"><a href="${escapeHtml(s.url)}">${escapeHtml(s.title)}</a></h2>` +
        s.blocks
          .map((b) => `<p style="color:#555">${escapeHtml(b.heading)}</p>${b.lines.map(lineHtml).join('')}`)
          .join(''),
    )
    .join('');
  const footer = doc.footer.map(lineHtml).join('');
  return (
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(doc.title)}</title></head>` +
    `<body style="font-family:sans-serif">${sections}<hr><footer style="color:#777;font-size:12px">${footer}</footer></body></html>`
  );
}

/** The address part of a Message-ID: the host of the base URL (`localhost` when it has none). */
export function messageIdDomain(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** A message's Message-ID: its row id and the installation's, so the same message always has the same one. */
export const messageIdOf = (messageRowId: number, installation: string, domain: string) =>
  `<trackline.m${messageRowId}.${installation}@${domain}>`;

/** The thread an issue's messages share (a root no one is sent: clients thread by References). */
export const issueThreadId = (issueDbId: number, installation: string, domain: string) =>
  `<trackline.issue${issueDbId}.${installation}@${domain}>`;
