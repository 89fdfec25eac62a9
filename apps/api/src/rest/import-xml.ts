import type { XmlBodyReaderName } from '@trackline/contracts';
import { DomainError } from '@trackline/domain';
import { DEFAULT_INPUT_LIMITS } from './request-body.js';
import { readXmlDocument, type XmlElement, XmlSyntaxError } from './xml-document.js';

/*
 * Readers of the import API's XML documents (route meta `xmlBody`): each turns the whole body
 * into the procedure's input. Read by the strict single-pass reader of `xml-document.ts`
 * (DOCTYPEs and entity declarations refused, character references such as `&#xA;` decoded).
 */

export type XmlBodyReader = (text: string) => Record<string, unknown>;

/** The document's root element, refusing bad XML and an unexpected root with 400. */
export function readImportDocument(text: string, roots: readonly string[]): XmlElement {
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw DomainError.invalid('body', 'XML with a DOCTYPE is not accepted');
  let root: XmlElement;
  try {
    root = readXmlDocument(text, DEFAULT_INPUT_LIMITS.maxDepth);
  } catch (error) {
    if (!(error instanceof XmlSyntaxError)) throw error;
    throw DomainError.invalid('body', `is not well-formed XML (${error.message})`);
  }
  if (!roots.includes(root.name))
    throw DomainError.invalid(
      'body',
      `must be an XML document with the root element <${roots.join('> or <')}>`,
    );
  return root;
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

/** `<issues><issue><field name><value>…</value></field>…<comment author text created/></issue></issues>` */
const importIssues: XmlBodyReader = (text) => {
  const issues = [];
  for (const issue of readImportDocument(text, ['issues']).children) {
    if (issue.name !== 'issue') continue;
    // One walk over the issue's children; optional keys are added only when present (a key
    // deleted afterwards would turn each comment into a slow dictionary-mode object).
    const fields: { name: string; values: string[] }[] = [];
    const comments: Record<string, string>[] = [];
    for (const child of issue.children) {
      if (child.name === 'field') {
        const values: string[] = [];
        for (const v of child.children) if (v.name === 'value') values.push(v.text);
        fields.push({ name: child.attributes.name ?? '', values });
      } else if (child.name === 'comment') {
        const comment: Record<string, string> = {
          author: textOf(child, 'author') ?? '',
          text: textOf(child, 'text') ?? '',
          created: textOf(child, 'created') ?? '',
        };
        const updated = textOf(child, 'updated');
        if (updated !== undefined) comment.updated = updated;
        const markdown = textOf(child, 'markdown');
        if (markdown !== undefined) comment.markdown = markdown;
        comments.push(comment);
      }
    }
    issues.push({ fields, comments });
  }
  return { issues };
};

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

export const XML_BODY_READERS: Record<XmlBodyReaderName, XmlBodyReader> = {
  importUsers,
  importIssues,
  importLinks,
  workItem,
  workType,
  importWorkItems,
};
