/** A stretch of text with the style the server gave it (`field`, `keyword`, `value`, `error`…), or none. */
export type Segment = { text: string; style: string | null; start: number };

/**
 * Cuts `text` into consecutive segments by the (possibly overlapping, unordered, out-of-range)
 * `ranges`; text no range covers has style null. An empty range at the end (something missing)
 * becomes a one-space `error` segment so that the place shows. Linear after sorting the ranges.
 */
export function segmentsOf(
  text: string,
  ranges: readonly { start: number; end: number; style: string }[],
): Segment[] {
  const sorted = ranges
    .map((r) => ({
      start: Math.max(0, Math.min(r.start, text.length)),
      end: Math.max(0, Math.min(r.end, text.length)),
      style: r.style,
    }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Segment[] = [];
  let at = 0;
  for (const r of sorted) {
    if (r.end === r.start && r.start === text.length && r.style === 'error') {
      if (at < text.length) out.push({ text: text.slice(at), style: null, start: at });
      at = text.length;
      out.push({ text: ' ', style: 'error', start: at });
      continue;
    }
    if (r.end <= at) continue;
    const from = Math.max(r.start, at);
    if (from > at) out.push({ text: text.slice(at, from), style: null, start: at });
    out.push({ text: text.slice(from, r.end), style: r.style, start: from });
    at = r.end;
  }
  if (at < text.length) out.push({ text: text.slice(at), style: null, start: at });
  return out;
}

/** Applies a suggestion: `text[0:cs] + pre + o + suf + text[ce:]`, caret at `cp`. */
export function applySuggestion(
  text: string,
  s: { o: string; pre: string; suf: string; cs: number; ce: number; cp: number },
): { text: string; caret: number } {
  const next = text.slice(0, s.cs) + s.pre + s.o + s.suf + text.slice(s.ce);
  return { text: next, caret: Math.min(Math.max(0, s.cp), next.length) };
}

/** A value for the command language: braces when it has spaces or would not read as one word. */
export const quoteValue = (value: string) => (/^[^\s{}:,#"]+$/.test(value) ? value : `{${value}}`);
