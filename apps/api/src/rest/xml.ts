import type { XmlShape } from '@trackline/contracts';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

// XML 1.0 forbids most control characters even when escaped: drop them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const INVALID_XML_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Anything `escapeXml` would change (most values have none: they are returned as they are). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const NEEDS_ESCAPE = /[\u0000-\u001f&<>"\ufffe\uffff]/;
/** Anything `escapeText` would change. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const TEXT_NEEDS_ESCAPE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f&<>\ufffe\uffff]/;

export const escapeXml = (value: string) =>
  !NEEDS_ESCAPE.test(value)
    ? value
    : value
        .replace(INVALID_XML_CHARS, '')
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/\n/g, '&#10;')
        .replace(/\r/g, '&#13;')
        .replace(/\t/g, '&#9;');

const escapeText = (value: string) =>
  !TEXT_NEEDS_ESCAPE.test(value)
    ? value
    : value.replace(INVALID_XML_CHARS, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Element text with line breaks and tabs as references, so that a body stays on one line. */
export const escapeTextOneLine = (value: string) =>
  !NEEDS_ESCAPE.test(value)
    ? value
    : escapeText(value).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');

const isPrimitive = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

export type CustomRenderer = (data: unknown) => string;

/** Compact XML (no whitespace nodes: the legacy Python client chokes on them). */
export function renderXml(
  shape: XmlShape,
  data: unknown,
  custom: Record<string, CustomRenderer> = {},
): string {
  const body = renderNode(shape, data, custom);
  return body === null ? '' : DECLARATION + body;
}

function renderNode(shape: XmlShape, data: unknown, custom: Record<string, CustomRenderer>): string | null {
  switch (shape.kind) {
    case 'empty':
      return null;
    case 'text':
      return null;
    case 'scalar':
      return `<${shape.name}>${escapeText(String((data as Record<string, unknown>)[shape.field] ?? ''))}</${shape.name}>`;
    case 'list': {
      const items = Array.isArray(data) ? data : [];
      return `<${shape.root}>${items.map((item) => renderNode(shape.item, item, custom) ?? '').join('')}</${shape.root}>`;
    }
    case 'custom': {
      const renderer = custom[shape.renderer];
      if (!renderer) throw new Error(`no XML renderer named ${shape.renderer}`);
      return renderer(data);
    }
    case 'element':
      return renderElement(shape, data, custom);
  }
}

function renderElement(
  shape: Extract<XmlShape, { kind: 'element' }>,
  data: unknown,
  custom: Record<string, CustomRenderer>,
): string {
  const record = (data ?? {}) as Record<string, unknown>;
  let attributes = '';
  let children = '';
  for (const [key, value] of Object.entries(record)) {
    const childShape = shape.children?.[key];
    if (childShape) {
      children += renderNode(childShape, value, custom) ?? '';
    } else if (key !== shape.text && isPrimitive(value)) {
      attributes += ` ${key}="${escapeXml(String(value))}"`;
    }
  }
  const text = shape.text ? escapeText(String(record[shape.text] ?? '')) : '';
  return children || text
    ? `<${shape.name}${attributes}>${text}${children}</${shape.name}>`
    : `<${shape.name}${attributes}/>`;
}

export const renderXmlError = (message: string) => `${DECLARATION}<error>${escapeText(message)}</error>`;
