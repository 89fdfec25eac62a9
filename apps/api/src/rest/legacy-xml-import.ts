import type { WorkItemDto, WorkTypeDto, XmlRendererName, ZImportResults } from '@trackline/contracts';
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

const el = (name: string, value: string | number) => `<${name}>${text(String(value))}</${name}>`;

/** `<workItems><workItem url><id/><date/><duration/><description/><worktype><name/></worktype><author login url/></workItem>…` */
function renderWorkItems(data: unknown): string {
  const items = (data as WorkItemDto[])
    .map(
      (w) =>
        `<workItem url="${attr(w.url)}">${el('id', w.id)}${el('date', w.date)}${el('duration', w.duration)}` +
        `${el('description', w.description)}${w.worktype ? `<worktype>${el('name', w.worktype.name)}</worktype>` : ''}` +
        `<author login="${attr(w.author.login)}" url="${attr(w.author.url)}"/></workItem>`,
    )
    .join('');
  return `<workItems>${items}</workItems>`;
}

/** `<workType><name/><id/><url/><autoAttached/></workType>`: child elements (the python library reads them by tag). */
const renderWorkType = (t: WorkTypeDto) =>
  `<workType>${el('name', t.name)}${el('id', t.id)}${el('url', t.url)}${el('autoAttached', String(t.autoAttached))}</workType>`;

/** The original's page "GET Work Types for a Project": `<workItemTypes><workType>…</workType>…</workItemTypes>`. */
function renderWorkTypes(data: unknown): string {
  return `<workItemTypes>${(data as WorkTypeDto[]).map(renderWorkType).join('')}</workItemTypes>`;
}

/** Users, links and work items answer the documented `importReport`; issues the `importResult` the scripts read. */
export const IMPORT_XML = {
  importReport: renderItems('importReport'),
  importResult: renderItems('importResult'),
  workItems: renderWorkItems,
  workTypes: renderWorkTypes,
  workType: (data: unknown) => renderWorkType(data as WorkTypeDto),
} satisfies Partial<Record<XmlRendererName, CustomRenderer>>;
