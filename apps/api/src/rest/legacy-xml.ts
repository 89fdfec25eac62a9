import type { CommandAssistDto, IssueDto } from '@trackline/contracts';
import { renderIssueChanges } from './legacy-xml-changes.js';
import { renderProjectsAll } from './legacy-xml-projects.js';
import { escapeXml as attr, type CustomRenderer, escapeTextOneLine as text } from './xml.js';

const el = (name: string, value: string | number) => `<${name}>${text(String(value))}</${name}>`;

/** `<issue id><field name><value>…</value></field>…<comment …/><tag>…</tag></issue>` */
function renderIssue(data: unknown): string {
  const issue = data as IssueDto;
  const fields = issue.field
    .map((f) => {
      const values = Array.isArray(f.value) ? f.value : [f.value];
      return `<field name="${attr(f.name)}">${values.map((v) => el('value', v)).join('')}</field>`;
    })
    .join('');
  const comments = issue.comment
    .map(
      (c) =>
        `<comment id="${attr(c.id)}" author="${attr(c.author)}" authorFullName="${attr(c.authorFullName)}" ` +
        `text="${attr(c.text)}" created="${c.created}"/>`,
    )
    .join('');
  const tags = issue.tag.map((t) => el('tag', t.value)).join('');
  const links = issue.link
    .map(
      (l) =>
        `<link typeName="${attr(l.typeName)}" role="${attr(l.role)}" source="${attr(l.source)}" target="${attr(l.target)}"/>`,
    )
    .join('');
  return `<issue id="${attr(issue.id)}" entityId="${attr(issue.entityId)}">${fields}${comments}${tags}${links}</issue>`;
}

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
        `${el('option', s.o)}${el('separator', String(s.sep))}</item>`,
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

export const LEGACY_XML: Record<string, CustomRenderer> = {
  issue: renderIssue,
  intellisense: renderIntellisense,
  commandAssist: renderIntellisense,
  projectsAll: renderProjectsAll,
  issueChanges: renderIssueChanges,
};
