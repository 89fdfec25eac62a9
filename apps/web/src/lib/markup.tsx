import { Fragment, type ReactNode } from 'react';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

/** Decodes the entities the server's escaping produces (and numeric ones); others stay as typed. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    const known = ENTITIES[name.toLowerCase()];
    if (known) return known;
    if (/^#x/i.test(name)) return safeCodePoint(Number.parseInt(name.slice(2), 16)) ?? whole;
    if (name.startsWith('#')) return safeCodePoint(Number.parseInt(name.slice(1), 10)) ?? whole;
    return whole;
  });
}

const safeCodePoint = (n: number) =>
  Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : null;

export type MarkupPart = { text: string; bold: boolean };

/**
 * The suggestion markup (`hd`: escaped text with the field or category in `<b>…</b>`) as plain
 * parts. Only `<b>` and `</b>` mean anything; any other tag is kept as text, so whatever the
 * server sends is shown and never interpreted as HTML. Linear in the length of the text.
 */
export function parseMarkup(html: string): MarkupPart[] {
  const parts: MarkupPart[] = [];
  let bold = false;
  let last = 0;
  const push = (raw: string) => {
    if (raw) parts.push({ text: decodeEntities(raw), bold });
  };
  for (const tag of html.matchAll(/<(\/?)b>/gi)) {
    const index = tag.index ?? 0;
    push(html.slice(last, index));
    bold = tag[1] !== '/';
    last = index + tag[0].length;
  }
  push(html.slice(last));
  return parts;
}

/** Renders suggestion markup as React text nodes (React escapes them): no `innerHTML` anywhere. */
export function Markup({ html }: { html: string }): ReactNode {
  return (
    <>
      {parseMarkup(html).map((part, i) =>
        part.bold ? <b key={i}>{part.text}</b> : <Fragment key={i}>{part.text}</Fragment>,
      )}
    </>
  );
}
