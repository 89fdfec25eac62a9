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
 * Legacy negotiation. The original's resources were XML-first: no Accept header, a bare
 * wildcard (`*` over `*`, what curl and python `requests` send) or a range that covers both
 * formats alike (`application/*`) gives the route's default (XML, JSON for command assist).
 * JSON only when a JSON type is preferred over XML (by q-value, then by being named exactly,
 * then by order); XML when an XML type is.
 */
export function negotiate(accept: string | undefined, fallback: Format): Format {
  if (!accept) return fallback;
  if (accept.length > MAX_REMEMBERED_LENGTH) return decide(accept, fallback);
  // Clients send the same few Accept headers on every call: each is parsed once.
  const key = fallback === 'xml' ? accept : `\u0000${accept}`;
  let format = decided.get(key);
  if (format === undefined) {
    format = decide(accept, fallback);
    if (decided.size >= MAX_DECIDED) decided.clear();
    decided.set(key, format);
  }
  return format;
}

const MAX_DECIDED = 256;
const MAX_REMEMBERED_LENGTH = 512;
const decided = new Map<string, Format>();

function decide(accept: string, fallback: Format): Format {
  if (!accept.trim()) return fallback;
  const ranges = parseAccept(accept);
  const json = match(ranges, 'json');
  const xml = match(ranges, 'xml');
  if (!json && !xml) return fallback;
  if (!xml) return 'json';
  if (!json) return 'xml';
  if (json.q !== xml.q) return json.q > xml.q ? 'json' : 'xml';
  if (json.specificity !== xml.specificity) return json.specificity > xml.specificity ? 'json' : 'xml';
  // One range (a wildcard) accepts both alike: no preference stated.
  if (json.order === xml.order) return fallback;
  return json.order < xml.order ? 'json' : 'xml';
}
