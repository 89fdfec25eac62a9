import { DomainError } from '@trackline/domain';
import { XMLParser } from 'fast-xml-parser';
import { DEFAULT_INPUT_LIMITS } from './request-body.js';

/*
 * Readers of the import API's XML documents (route meta `xmlBody`): each turns the whole body
 * into the procedure's input. Entities beyond the XML ones and character references are not
 * expanded from a DOCTYPE (refused before parsing, see `readXmlDocument`); `&#xA;` and the
 * like are decoded, as the legacy python library sends newlines that way in attributes.
 */

type Node = Record<string, unknown>;
export type XmlBodyReader = (text: string) => Record<string, unknown>;

const REPEATED = new Set(['user', 'issue', 'field', 'value', 'comment', 'link', 'workItem']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  // Character references (`&#10;`); named entities other than XML's own come only from a DOCTYPE.
  htmlEntities: true,
  isArray: (name) => REPEATED.has(name),
  maxNestedTags: DEFAULT_INPUT_LIMITS.maxDepth,
});

/** The document's root element (`root`: its expected name), refusing DOCTYPEs and bad XML with 400. */
export function readXmlDocument(text: string, roots: readonly string[]): Node {
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw DomainError.invalid('body', 'XML with a DOCTYPE is not accepted');
  let doc: Node;
  try {
    doc = parser.parse(text, true) as Node;
  } catch (error) {
    throw DomainError.invalid('body', `is not well-formed XML (${(error as Error).message.split('\n')[0]})`);
  }
  const name = Object.keys(doc)[0];
  if (name === undefined || !roots.includes(name))
    throw DomainError.invalid(
      'body',
      `must be an XML document with the root element <${roots.join('> or <')}>`,
    );
  const root = doc[name];
  return root && typeof root === 'object' ? (root as Node) : {};
}

const nodes = (value: unknown): Node[] =>
  (Array.isArray(value) ? value : []).map((v) => (v && typeof v === 'object' ? (v as Node) : {}));

/** An attribute or a child element's text, whichever the document used. */
function textOf(node: Node, key: string): string | undefined {
  const value = node[key];
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return textOf({ [key]: value[0] }, key);
  if (value && typeof value === 'object') {
    const inner = (value as Node)['#text'];
    return typeof inner === 'string' ? inner : '';
  }
  return undefined;
}

const valueText = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const inner = (value as Node)['#text'];
    return typeof inner === 'string' ? inner : '';
  }
  return '';
};

function defined<T extends Record<string, string | undefined>>(record: T): T {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}

/** `<list><user login fullName email jabber/></list>` */
const importUsers: XmlBodyReader = (text) => ({
  users: nodes(readXmlDocument(text, ['list', 'users']).user).map((u) =>
    defined({
      login: textOf(u, 'login') ?? '',
      fullName: textOf(u, 'fullName'),
      email: textOf(u, 'email'),
      jabber: textOf(u, 'jabber'),
    }),
  ),
});

/** `<issues><issue><field name><value>…</value></field>…<comment author text created/></issue></issues>` */
const importIssues: XmlBodyReader = (text) => ({
  issues: nodes(readXmlDocument(text, ['issues']).issue).map((issue) => ({
    fields: nodes(issue.field).map((f) => ({
      name: textOf(f, 'name') ?? '',
      values: (Array.isArray(f.value) ? f.value : []).map(valueText),
    })),
    comments: nodes(issue.comment).map((c) =>
      defined({
        author: textOf(c, 'author') ?? '',
        text: textOf(c, 'text') ?? '',
        created: textOf(c, 'created') ?? '',
        updated: textOf(c, 'updated'),
        markdown: textOf(c, 'markdown'),
      }),
    ),
  })),
});

/** `<list><link typeName source target/></list>` (older documentation: root `links`). */
const importLinks: XmlBodyReader = (text) => ({
  links: nodes(readXmlDocument(text, ['list', 'links']).link).map((l) => ({
    typeName: textOf(l, 'typeName') ?? '',
    source: textOf(l, 'source') ?? '',
    target: textOf(l, 'target') ?? '',
  })),
});

export const XML_BODY_READERS: Record<string, XmlBodyReader> = { importUsers, importIssues, importLinks };
