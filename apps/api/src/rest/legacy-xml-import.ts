import type { ZImportResults } from '@trackline/contracts';
import type { z } from 'zod';
import { escapeXml as attr, type CustomRenderer, escapeTextOneLine as text } from './xml.js';

type Results = z.infer<typeof ZImportResults>;

/** `<root><item id imported><error fieldName value>message</error></item>…</root>` */
const renderItems =
  (root: string): CustomRenderer =>
  (data) => {
    const items = (data as Results)
      .map((item) => {
        const errors = (item.errors ?? [])
          .map(
            (e) =>
              `<error${e.fieldName !== undefined ? ` fieldName="${attr(e.fieldName)}"` : ''}` +
              `${e.value !== undefined ? ` value="${attr(e.value)}"` : ''}>${text(e.message)}</error>`,
          )
          .join('');
        const head = `<item id="${attr(item.id)}" imported="${item.imported}"`;
        return errors ? `${head}>${errors}</item>` : `${head}/>`;
      })
      .join('');
    return `<${root}>${items}</${root}>`;
  };

/** Users and links answer the documented `importReport`; issues the `importResult` the scripts read. */
export const IMPORT_XML: Record<string, CustomRenderer> = {
  importReport: renderItems('importReport'),
  importResult: renderItems('importResult'),
};
