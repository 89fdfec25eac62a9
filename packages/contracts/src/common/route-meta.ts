/**
 * How a procedure's output is written as legacy XML on `/rest`. Plain data so that
 * it can live here (contracts depend on zod only); the renderer is in `apps/api`.
 *
 * - element: an object as one element; primitive properties become attributes,
 *   properties named in `children` become child elements, `text` names the property
 *   written as the element's text.
 * - list: an array wrapped in `root`, each item rendered with `item`.
 * - scalar: `{ [field]: v }` as `<name>v</name>` (counts are `<int>N</int>`).
 * - text: `{ [field]: v }` as a text/plain body (the legacy delete message).
 * - empty: no body (legacy creates answer 201 with Content-Length 0).
 * - custom: a renderer registered in the API under that name.
 */
/**
 * The custom XML renderers the API registers, by name: a route names one in its meta, and the
 * API's table of renderers must hold exactly these (a missing one is a type error, not a 500).
 */
export type XmlRendererName =
  | 'issue'
  | 'issues'
  | 'issueCompacts'
  | 'intellisense'
  | 'commandAssist'
  | 'projectsAll'
  | 'customFieldPrototype'
  | 'projectCustomField'
  | 'bundleRefs'
  | 'bundle'
  | 'importReport'
  | 'importResult'
  | 'workItems'
  | 'workTypes'
  | 'workType'
  | 'issueChanges'
  | 'issueEvents'
  | 'issueCounts';

/** The readers of whole XML request bodies the API registers, by name (see `xmlBody`). */
export type XmlBodyReaderName =
  | 'importUsers'
  | 'importIssues'
  | 'importLinks'
  | 'workItem'
  | 'workType'
  | 'importWorkItems'
  | 'projectTimeTracking';

export type XmlShape =
  | { kind: 'element'; name: string; children?: Record<string, XmlShape>; text?: string }
  | { kind: 'list'; root: string; item: XmlShape }
  | { kind: 'scalar'; name: string; field: string }
  | { kind: 'text'; field: string }
  | { kind: 'empty' }
  | { kind: 'custom'; renderer: XmlRendererName };

export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Structurally compatible with trpc-to-openapi's `OpenApiMeta`. */
export type RouteMeta = {
  openapi?: {
    method: RestMethod;
    path: `/${string}`;
    summary?: string;
    description?: string;
    tags?: string[];
    protect?: boolean;
    errorResponses?: number[] | Record<number, string>;
    successDescription?: string;
    contentTypes?: string[];
  };
  /** Legacy XML rendering; JSON is the output schema itself. */
  xml?: XmlShape;
  /**
   * A reader registered in the API that turns a whole XML request body into the input (the
   * import documents); without it an XML body gives the root element's attributes.
   */
  xmlBody?: XmlBodyReaderName;
  /** Content type when the request states no preference (command endpoints default to JSON). */
  defaultFormat?: 'xml' | 'json';
};

export const element = (name: string, children?: Record<string, XmlShape>, text?: string): XmlShape => ({
  kind: 'element',
  name,
  ...(children ? { children } : {}),
  ...(text ? { text } : {}),
});
export const list = (root: string, item: XmlShape): XmlShape => ({ kind: 'list', root, item });
