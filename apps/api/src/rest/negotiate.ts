export type Format = 'xml' | 'json';

type Range = { type: string; subtype: string; q: number; order: number };

function parseAccept(header: string): Range[] {
  return header.split(',').flatMap((part, order) => {
    const [media = '', ...params] = part.trim().split(';');
    const [type, subtype] = media.trim().toLowerCase().split('/');
    if (!type || !subtype) return [];
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    return [{ type, subtype, q: Number.isFinite(q) ? q : 0, order }];
  });
}

const SPELLINGS: Record<Format, [string, string][]> = {
  json: [
    ['application', 'json'],
    ['text', 'json'],
    ['application', 'javascript'],
  ],
  xml: [
    ['application', 'xml'],
    ['text', 'xml'],
  ],
};

/** The best range for a format: exact beats type/* beats the full wildcard. */
function match(ranges: Range[], format: Format) {
  let best: { q: number; specificity: number; order: number } | null = null;
  for (const r of ranges) {
    for (const [type, subtype] of SPELLINGS[format]) {
      const specificity =
        r.type === type && r.subtype === subtype
          ? 2
          : r.type === type && r.subtype === '*'
            ? 1
            : r.type === '*'
              ? 0
              : -1;
      if (specificity < 0) continue;
      if (!best || specificity > best.specificity) best = { q: r.q, specificity, order: r.order };
    }
  }
  return best && best.q > 0 ? best : null;
}

/**
 * Legacy negotiation: no Accept header gives the route's default (XML for admin routes);
 * a preference for JSON, or a bare wildcard, gives JSON; an XML preference gives XML.
 */
export function negotiate(accept: string | undefined, fallback: Format): Format {
  if (!accept?.trim()) return fallback;
  const ranges = parseAccept(accept);
  const json = match(ranges, 'json');
  const xml = match(ranges, 'xml');
  if (!json && !xml) return fallback;
  if (!xml) return 'json';
  if (!json) return 'xml';
  if (json.q !== xml.q) return json.q > xml.q ? 'json' : 'xml';
  if (json.specificity !== xml.specificity) return json.specificity > xml.specificity ? 'json' : 'xml';
  if (json.specificity === 0) return 'json';
  return json.order <= xml.order ? 'json' : 'xml';
}
