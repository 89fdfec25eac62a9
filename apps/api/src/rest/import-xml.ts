import type { XmlBodyReaderName } from '@trackline/contracts';
import { DomainError } from '@trackline/domain';
import { DEFAULT_INPUT_LIMITS } from './request-body.js';
import { scanXml, treeBuilder, type XmlElement, type XmlEvents, XmlSyntaxError } from './xml-document.js';

/*
 * Readers of the import API's XML documents (route meta `xmlBody`): each turns the whole body
 * into the procedure's input. Read by the strict single-pass reader of `xml-document.ts`
 * (DOCTYPEs and entity declarations refused, character references such as `&#xA;` decoded).
 */

export type XmlBodyReader = (text: string) => Record<string, unknown>;

/**
 * Reads the document into `events`, refusing a DOCTYPE, bad XML and an unexpected root with 400
 * (the root is checked once the whole document has been read, so bad XML is reported first).
 */
function scanImportDocument(text: string, roots: readonly string[], events: XmlEvents): void {
  // `includes` first: the case-insensitive pattern costs a copy of the body, and most bodies hold no `<!`.
  if (text.includes('<!') && /<!DOCTYPE|<!ENTITY/i.test(text))
    throw DomainError.invalid('body', 'XML with a DOCTYPE is not accepted');
  let root = '';
  try {
    scanXml(text, DEFAULT_INPUT_LIMITS.maxDepth, {
      open(name, attributes, depth) {
        if (depth === 1) root = name;
        events.open(name, attributes, depth);
      },
      text: events.text,
      close: events.close,
    });
  } catch (error) {
    if (!(error instanceof XmlSyntaxError)) throw error;
    throw DomainError.invalid('body', `is not well-formed XML (${error.message})`);
  }
  if (!roots.includes(root))
    throw DomainError.invalid(
      'body',
      `must be an XML document with the root element <${roots.join('> or <')}>`,
    );
}

/** The document's root element, refusing bad XML and an unexpected root with 400. */
export function readImportDocument(text: string, roots: readonly string[]): XmlElement {
  const tree = treeBuilder();
  scanImportDocument(text, roots, tree.events);
  return tree.root();
}

const childrenNamed = (element: XmlElement, name: string) => element.children.filter((c) => c.name === name);

/** An attribute, or else a child element's text, whichever the document used. */
function textOf(element: XmlElement, key: string): string | undefined {
  const attribute = element.attributes[key];
  if (attribute !== undefined) return attribute;
  return element.children.find((c) => c.name === key)?.text;
}

function defined<T extends Record<string, string | undefined>>(record: T): T {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}

/** `<list><user login fullName email jabber/></list>` */
const importUsers: XmlBodyReader = (text) => ({
  users: childrenNamed(readImportDocument(text, ['list', 'users']), 'user').map((u) =>
    defined({
      login: textOf(u, 'login') ?? '',
      fullName: textOf(u, 'fullName'),
      email: textOf(u, 'email'),
      jabber: textOf(u, 'jabber'),
    }),
  ),
});

type ImportedField = { name: string; values: string[] };
type ImportedIssue = { fields: ImportedField[]; comments: Record<string, string>[] };
/** A comment's properties, each an attribute or else the text of its first child of that name. */
const COMMENT_KEYS = new Set(['author', 'text', 'created', 'updated', 'markdown']);

/**
 * `<issues><issue><field name><value>…</value></field>…<comment author text created/></issue></issues>`,
 * read straight into the procedure's input as the document is scanned (the issues, their fields'
 * values and comments; everything else is skipped), without a tree of every element first: an
 * import's body is up to 1 MiB, and the tree was most of what a request allocated.
 */
const importIssues: XmlBodyReader = (text) => {
  const issues: ImportedIssue[] = [];
  let depth = 0;
  let issue: ImportedIssue | null = null;
  let field: ImportedField | null = null;
  let comment: { attributes: Readonly<Record<string, string>>; texts: Map<string, string> } | null = null;
  // The depth-4 element whose text is wanted: a field's `value`, or a comment's property.
  let capturing: string | null = null;
  let captured = '';
  scanImportDocument(text, ['issues'], {
    open(name, attributes, at) {
      depth = at;
      if (at === 2) {
        issue = name === 'issue' ? { fields: [], comments: [] } : null;
        if (issue) issues.push(issue);
      } else if (at === 3 && issue) {
        field = null;
        comment = null;
        if (name === 'field') {
          field = { name: attributes.name ?? '', values: [] };
          issue.fields.push(field);
        } else if (name === 'comment') comment = { attributes, texts: new Map() };
      } else if (at === 4) {
        if (field && name === 'value') capturing = 'value';
        else if (comment && COMMENT_KEYS.has(name) && !comment.texts.has(name)) {
          capturing = name;
          comment.texts.set(name, '');
        }
        captured = '';
      }
    },
    text(chunk) {
      if (capturing !== null && depth === 4) captured += chunk;
    },
    close() {
      if (depth === 4 && capturing !== null) {
        if (capturing === 'value') {
          // Most fields have one value: an array of exactly one (a first push reserves 17 slots).
          if (field && field.values.length === 0) field.values = [captured];
          else field?.values.push(captured);
        } else comment?.texts.set(capturing, captured);
        capturing = null;
      } else if (depth === 3 && comment && issue) {
        issue.comments.push(commentOf(comment.attributes, comment.texts));
        comment = null;
      }
      depth--;
    },
  });
  return { issues };
};

/** A comment's input; optional keys only when present (as the JSON input would have them). */
function commentOf(attributes: Readonly<Record<string, string>>, texts: Map<string, string>) {
  const value = (key: string) => attributes[key] ?? texts.get(key);
  const comment: Record<string, string> = {
    author: value('author') ?? '',
    text: value('text') ?? '',
    created: value('created') ?? '',
  };
  const updated = value('updated');
  if (updated !== undefined) comment.updated = updated;
  const markdown = value('markdown');
  if (markdown !== undefined) comment.markdown = markdown;
  return comment;
}

/** `<list><link typeName source target/></list>` (older documentation: root `links`). */
const importLinks: XmlBodyReader = (text) => ({
  links: childrenNamed(readImportDocument(text, ['list', 'links']), 'link').map((l) => ({
    typeName: textOf(l, 'typeName') ?? '',
    source: textOf(l, 'source') ?? '',
    target: textOf(l, 'target') ?? '',
  })),
});

/** A number when the text is one (the REST bridge's coercion does the same for query parameters). */
const numeric = (value: string | undefined) =>
  value !== undefined && /^\d{1,16}$/.test(value.trim()) ? Number(value) : value;

/** `<workItem><date/><duration/><description/><worktype><name/></worktype></workItem>` (create, update). */
const workItem: XmlBodyReader = (text) => {
  const item = readImportDocument(text, ['workItem']);
  const worktype = item.children.find((c) => c.name === 'worktype');
  return defined({
    date: numeric(textOf(item, 'date')),
    duration: numeric(textOf(item, 'duration')),
    description: textOf(item, 'description'),
    worktype: worktype ? (textOf(worktype, 'name') ?? worktype.text) : undefined,
  } as Record<string, string | undefined>);
};

/** `<workType><name/><autoAttached/></workType>` (the python library's `WorkType.toXml`; an `id` is ignored). */
const workType: XmlBodyReader = (text) => {
  const type = readImportDocument(text, ['workType']);
  return defined({ name: textOf(type, 'name') ?? '', autoAttached: textOf(type, 'autoAttached') });
};

/** `<workItems><workItem>…<author login/></workItem></workItems>` */
const importWorkItems: XmlBodyReader = (text) => ({
  workItems: childrenNamed(readImportDocument(text, ['workItems']), 'workItem').map((w) => {
    const worktype = w.children.find((c) => c.name === 'worktype');
    const author = w.children.find((c) => c.name === 'author');
    return defined({
      date: textOf(w, 'date') ?? '',
      duration: textOf(w, 'duration') ?? '',
      description: textOf(w, 'description'),
      worktype: worktype ? (textOf(worktype, 'name') ?? worktype.text) : undefined,
      author: author ? (author.attributes.login ?? textOf(author, 'login')) : undefined,
    });
  }),
});

/**
 * `<settings enabled="true"><estimation name="Estimation"/><spentTime name="Spent time"/></settings>`
 * (the original's "PUT Time Tracking Settings for a Project", the python library's
 * `setProjectTimeTrackingSettings`): the fields by their `name` attributes.
 */
const projectTimeTracking: XmlBodyReader = (text) => {
  const settings = readImportDocument(text, ['settings']);
  const field = (tag: string) => {
    const element = settings.children.find((c) => c.name === tag);
    return element ? (element.attributes.name ?? textOf(element, 'name') ?? element.text) : undefined;
  };
  return defined({
    enabled: settings.attributes.enabled,
    estimation: field('estimation'),
    spentTime: field('spentTime'),
  });
};

export const XML_BODY_READERS: Record<XmlBodyReaderName, XmlBodyReader> = {
  importUsers,
  importIssues,
  importLinks,
  workItem,
  workType,
  importWorkItems,
  projectTimeTracking,
};
