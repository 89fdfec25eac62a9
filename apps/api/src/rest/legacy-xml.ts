import type { CommandAssistDto, XmlRendererName } from '@trackline/contracts';
import { renderIssueChanges, renderIssueEvents } from './legacy-xml-changes.js';
import { FIELD_XML } from './legacy-xml-fields.js';
import { IMPORT_XML } from './legacy-xml-import.js';
import { renderIssue, renderIssueCompacts, renderIssues } from './legacy-xml-issue.js';
import { renderProjectsAll } from './legacy-xml-projects.js';
import { type CustomRenderer, escapeTextOneLine as text } from './xml.js';

const el = (name: string, value: string | number) => `<${name}>${text(String(value))}</${name}>`;

/** The legacy IntelliSense vocabulary (`/rest/issue/{id}/execute/intellisense`), also used for `/rest/command/*`. */
function renderIntellisense(data: unknown): string {
  const assist = data as CommandAssistDto;
  const ranges = (assist.underline?.ranges ?? [])
    .map((r) => `<range>${el('start', r.start)}${el('end', r.end)}${el('styleClass', r.style)}</range>`)
    .join('');
  const items = (assist.suggest?.items ?? [])
    .map(
      (s) =>
        `<item><match start="${s.ms}" end="${s.me}"/><completion start="${s.cs}" end="${s.ce}"/>` +
        `${el('caret', s.cp)}${el('description', s.d)}${el('prefix', s.pre)}${el('suffix', s.suf)}` +
        `${el('option', s.o)}${el('separator', String(s.sep))}` +
        `${s.styleClass ? el('styleClass', s.styleClass) : ''}</item>`,
    )
    .join('');
  const commands = (assist.commands?.command ?? [])
    .map((cmd) => `<command error="${cmd.error}">${text(cmd.desc)}</command>`)
    .join('');
  return (
    `<IntelliSense>${assist.underline ? `<highlight>${ranges}</highlight>` : ''}<recent/>` +
    `${assist.suggest ? `<suggest>${items}</suggest>` : ''}${assist.commands ? `<commands>${commands}</commands>` : ''}` +
    '</IntelliSense>'
  );
}

export const LEGACY_XML: Record<XmlRendererName, CustomRenderer> = {
  issue: renderIssue,
  issues: renderIssues,
  issueCompacts: renderIssueCompacts,
  intellisense: renderIntellisense,
  commandAssist: renderIntellisense,
  projectsAll: renderProjectsAll,
  ...FIELD_XML,
  ...IMPORT_XML,
  issueChanges: renderIssueChanges,
  issueEvents: renderIssueEvents,
  issueCounts: (data) =>
    `<counts>${((data as { count?: number[] }).count ?? []).map((n) => el('count', n)).join('')}</counts>`,
};
