import type { ProjectSummaryDto } from '@trackline/contracts';
import { escapeXml as attr } from './xml.js';

const subs = (name: string, values: { sub: { value: string }[] } | undefined) =>
  values ? `<${name}>${values.sub.map((s) => `<sub value="${attr(s.value)}"/>`).join('')}</${name}>` : '';

/**
 * `<projects><project name shortName description isImporting>` with, when verbose, the children
 * `assigneesLogin`, `assigneesFullName` and `subsystems`, each holding `<sub value="…"/>`.
 */
export function renderProjectsAll(data: unknown): string {
  const projects = (Array.isArray(data) ? data : []) as ProjectSummaryDto[];
  const items = projects.map((p) => {
    const attributes =
      `name="${attr(p.name)}" shortName="${attr(p.shortName)}" description="${attr(p.description)}" ` +
      `isImporting="${p.isImporting}"`;
    const children =
      subs('assigneesLogin', p.assigneesLogin) +
      subs('assigneesFullName', p.assigneesFullName) +
      subs('subsystems', p.subsystems);
    return children ? `<project ${attributes}>${children}</project>` : `<project ${attributes}/>`;
  });
  return `<projects>${items.join('')}</projects>`;
}
