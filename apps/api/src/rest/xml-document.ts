/*
 * A strict, single-pass reader for the import API's XML documents (up to 1 MiB, up to 100
 * issues each). fast-xml-parser, which reads every other XML body, costs 20-30 ms per 100
 * issues (measured): by itself that would cap imports near 3,000 issues/s on this machine, so
 * these documents get a reader that does only what they need, in linear time:
 *   - elements, attributes (either quote), text and CDATA; comments, processing instructions and
 *     the XML declaration are skipped;
 *   - the five XML entities and character references (`&#xA;`, which the legacy python library
 *     sends for newlines in attributes); any other `&` is an error, as is a reference to a
 *     character XML forbids;
 *   - attribute-value normalisation as XML 1.0 says (a literal tab or line break in an attribute
 *     becomes a space; a reference keeps it);
 *   - DOCTYPE (so any entity declaration), mismatched or unclosed tags, duplicate attributes, text
 *     outside the root and nesting deeper than `maxDepth` are refused.
 * Every scan moves forward with indexOf or a bounded loop: no backtracking, no recursion.
 */

export type XmlElement = {
  name: string;
  attributes: Readonly<Record<string, string>>;
  children: XmlElement[];
  /** The element's own text (text and CDATA directly inside it, concatenated). */
  text: string;
};

export class XmlSyntaxError extends Error {}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const isXmlChar = (c: number) =>
  c === 0x9 ||
  c === 0xa ||
  c === 0xd ||
  (c >= 0x20 && c <= 0xd7ff) ||
  (c >= 0xe000 && c <= 0xfffd) ||
  (c >= 0x10000 && c <= 0x10ffff);

/** Decodes the references of one text or attribute value (linear: each `&` is read once). */
function decode(raw: string, at: number): string {
  let amp = raw.indexOf('&');
  if (amp < 0) return raw;
  let out = '';
  let from = 0;
  while (amp >= 0) {
    const semi = raw.indexOf(';', amp);
    if (semi < 0 || semi - amp > 12) throw new XmlSyntaxError(`a bare & near offset ${at + amp}`);
    const ref = raw.slice(amp + 1, semi);
    let char: string | undefined;
    if (ref.startsWith('#')) {
      const hex = ref[1] === 'x';
      const digits = ref.slice(hex ? 2 : 1);
      const valid = hex ? /^[0-9a-fA-F]{1,6}$/.test(digits) : /^[0-9]{1,7}$/.test(digits);
      const code = valid ? Number.parseInt(digits, hex ? 16 : 10) : -1;
      if (!isXmlChar(code))
        throw new XmlSyntaxError(`an invalid character reference &${ref}; near offset ${at + amp}`);
      char = String.fromCodePoint(code);
    } else {
      char = PREDEFINED[ref];
      if (char === undefined)
        throw new XmlSyntaxError(`an undefined entity &${ref}; near offset ${at + amp}`);
    }
    out += raw.slice(from, amp) + char;
    from = semi + 1;
    amp = raw.indexOf('&', from);
  }
  return out + raw.slice(from);
}

// Character classes by code (a table lookup per character instead of a one-character string
// and a Set probe: the scans below visit every character of a 1 MiB body).
const NAME_END = new Uint8Array(128);
for (const c of ' \t\n\r/>=<"\'') NAME_END[c.charCodeAt(0)] = 1;
const isSpace = (c: number) => c === 0x20 || c === 0x9 || c === 0xa || c === 0xd;
const TAB_OR_BREAK = /[\t\n\r]/;
const TABS_AND_BREAKS = /[\t\n\r]/g;

/** An element without attributes shares this one (never written: the reader fills only its own). */
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/**
 * What a reader of the document is told, in document order. Text (decoded text and CDATA) belongs
 * to the innermost open element; a self-closing element is opened and closed at once.
 */
export type XmlEvents = {
  /** `depth` 1 is the root element. */
  open(name: string, attributes: Readonly<Record<string, string>>, depth: number): void;
  text(text: string): void;
  close(): void;
};

/**
 * Reads the document once, checking it as described above, and tells `events` what it finds:
 * a reader that needs only some of the document builds only that (the issue import builds its
 * input directly, without a tree of every element first).
 */
export function scanXml(text: string, maxDepth: number, events: XmlEvents): void {
  const length = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // Names of the open elements, innermost last.
  const open: string[] = [];
  let rootSeen = false;
  const fail = (what: string): never => {
    throw new XmlSyntaxError(`${what} near offset ${i}`);
  };
  const skipSpace = () => {
    while (i < length && isSpace(text.charCodeAt(i))) i++;
  };
  const readName = () => {
    const start = i;
    for (; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c < 128 && NAME_END[c] === 1) break;
    }
    if (i === start) fail('a missing name');
    return text.slice(start, i);
  };
  const skipPast = (terminator: string, what: string) => {
    const end = text.indexOf(terminator, i);
    if (end < 0) fail(`an unclosed ${what}`);
    const content = text.slice(i, end);
    i = end + terminator.length;
    return content;
  };

  while (i < length) {
    const lt = text.indexOf('<', i);
    const chunkEnd = lt < 0 ? length : lt;
    if (chunkEnd > i) {
      const chunk = text.slice(i, chunkEnd);
      if (open.length) events.text(decode(chunk, i));
      else if (chunk.trim()) fail('text outside the root element');
      i = chunkEnd;
      continue;
    }
    // text[i] === '<'; the next character tells markup (`!`, `?`) from tags in one comparison.
    const next = text.charCodeAt(i + 1);
    if (next === 0x21 && text.startsWith('<!--', i)) {
      i += 4;
      skipPast('-->', 'comment');
    } else if (next === 0x21 && text.startsWith('<![CDATA[', i)) {
      if (!open.length) fail('CDATA outside the root element');
      i += 9;
      events.text(skipPast(']]>', 'CDATA section'));
    } else if (next === 0x3f) {
      i += 2;
      skipPast('?>', 'processing instruction');
    } else if (next === 0x21) {
      fail('a DOCTYPE or declaration (not accepted)');
    } else if (next === 0x2f) {
      i += 2;
      const name = readName();
      skipSpace();
      if (text[i] !== '>') fail(`a malformed end tag </${name}`);
      i++;
      const closing = open.pop();
      if (closing !== name)
        fail(`an end tag </${name}> that closes ${closing !== undefined ? `<${closing}>` : 'nothing'}`);
      events.close();
    } else {
      i++;
      if (rootSeen && open.length === 0) fail('a second root element');
      rootSeen = true;
      const elementName = readName();
      let attributes = NO_ATTRIBUTES as Record<string, string>;
      for (;;) {
        const before = i;
        skipSpace();
        if (i >= length) fail(`an unclosed start tag <${elementName}`);
        const c = text[i];
        if (c === '>' || (c === '/' && text[i + 1] === '>')) break;
        if (i === before) fail(`a malformed start tag <${elementName}`);
        const name = readName();
        skipSpace();
        if (text[i] !== '=') fail(`attribute ${name} without a value`);
        i++;
        skipSpace();
        const quote = text[i];
        if (quote !== '"' && quote !== "'") fail(`attribute ${name} without quotes`);
        const start = ++i;
        const value = skipPast(quote as string, `attribute ${name}`);
        if (value.includes('<')) fail(`a < inside attribute ${name}`);
        if (Object.hasOwn(attributes, name)) fail(`a duplicate attribute ${name}`);
        const normalised = TAB_OR_BREAK.test(value) ? value.replace(TABS_AND_BREAKS, ' ') : value;
        if (attributes === NO_ATTRIBUTES) attributes = {};
        attributes[name] = decode(normalised, start);
      }
      if (text[i] === '/') {
        i += 2;
        events.open(elementName, attributes, open.length + 1);
        events.close();
      } else {
        i++;
        if (open.length >= maxDepth) fail(`nesting deeper than ${maxDepth} levels`);
        open.push(elementName);
        events.open(elementName, attributes, open.length);
      }
    }
  }
  if (open.length) throw new XmlSyntaxError(`the element <${open.at(-1)}> is not closed`);
  if (!rootSeen) throw new XmlSyntaxError('no root element');
}

/** Events that build the tree of elements; `root()` once the scan is done. */
export function treeBuilder(): { events: XmlEvents; root(): XmlElement } {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const events: XmlEvents = {
    open(name, attributes) {
      const element: XmlElement = { name, attributes, children: [], text: '' };
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else root = element;
      stack.push(element);
    },
    text(chunk) {
      (stack[stack.length - 1] as XmlElement).text += chunk;
    },
    close() {
      stack.pop();
    },
  };
  return { events, root: () => root as XmlElement };
}

/** The whole document as a tree of elements. */
export function readXmlDocument(text: string, maxDepth: number): XmlElement {
  const tree = treeBuilder();
  scanXml(text, maxDepth, tree.events);
  return tree.root();
}
