import type { IssueDto } from '@trackline/contracts';
import { escapeXml as attr, escapeTextOneLine as text } from './xml.js';

type Field = IssueDto['field'][number];
type Value = Exclude<Field['value'], string>[number];

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const el = (name: string, value: string) => `<${name}>${text(value)}</${name}>`;

/** The original's `xsi:type` of a field, from the shape of its values (see `ZIssueField`). */
function xsiTypeOf(field: Field): string {
  if (typeof field.value === 'string') return 'SingleField';
  const first = field.value[0];
  if (typeof first === 'object') {
    if ('role' in first) return 'LinkField';
    if ('url' in first) return 'AttachmentField';
    if ('fullName' in first) return 'MultiUserField';
  }
  return 'CustomFieldValue';
}

/** `<value>` with the extra facts of links (`type role`), attachments (`url`) and users (`fullName`) as attributes. */
function renderValue(value: Value): string {
  if (typeof value === 'string') return el('value', value);
  const attributes = Object.entries(value)
    .filter(([key]) => key !== 'value')
    .map(([key, v]) => ` ${key}="${attr(String(v))}"`)
    .join('');
  return `<value${attributes}>${text(value.value)}</value>`;
}

/**
 * `<field xsi:type name>`: the values, then (bundle values) one `<valueId>` per value and the
 * `<color><bg/><fg/></color>`, as the original's serializer wrote its CustomFieldValue.
 */
function renderField(field: Field): string {
  const values =
    typeof field.value === 'string' ? el('value', field.value) : field.value.map(renderValue).join('');
  const ids = (field.valueId ?? []).map((id) => el('valueId', id)).join('');
  const color = field.color ? `<color>${el('bg', field.color.bg)}${el('fg', field.color.fg)}</color>` : '';
  return `<field xsi:type="${xsiTypeOf(field)}" name="${attr(field.name)}">${values}${ids}${color}</field>`;
}

function renderComment(c: IssueDto['comment'][number]): string {
  const updated = c.updated === null ? '' : ` updated="${c.updated}"`;
  return (
    `<comment id="${attr(c.id)}" author="${attr(c.author)}" authorFullName="${attr(c.authorFullName)}" ` +
    `issueId="${attr(c.issueId)}" deleted="${c.deleted}" text="${attr(c.text)}" ` +
    `shownForIssueAuthor="${c.shownForIssueAuthor}" created="${c.created}"${updated}><replies/></comment>`
  );
}

/** `<issue id entityId>…</issue>` with no namespace declaration (its root declares `xsi`). */
function renderIssueElement(issue: IssueDto, namespace = ''): string {
  const fields = issue.field.map(renderField).join('');
  const comments = issue.comment.map(renderComment).join('');
  const tags = issue.tag.map((t) => `<tag cssClass="${attr(t.cssClass)}">${text(t.value)}</tag>`).join('');
  return (
    `<issue id="${attr(issue.id)}" entityId="${attr(issue.entityId)}"${namespace}>` +
    `${fields}${comments}${tags}</issue>`
  );
}

const XSI_DECLARATION = ` xmlns:xsi="${XSI}"`;

/**
 * One issue: `<issue id entityId xmlns:xsi><field xsi:type name>…</field>…<comment …/>…<tag cssClass>name</tag></issue>`.
 * Links are the `links` field (the `link` list of the JSON is its duplicate in the link-list shape).
 */
export function renderIssue(data: unknown): string {
  return renderIssueElement(data as IssueDto, XSI_DECLARATION);
}

/**
 * `GET /rest/issue/byproject/{p}`: `<issues xmlns:xsi><issue …/>…</issues>`. The namespace is declared
 * once, on the root, as the original did: the python library copies every attribute of each
 * `<issue>` into the issue it imports, so a declaration there became a field named `xmlns:xsi`.
 */
export function renderIssues(data: unknown): string {
  const issues = (Array.isArray(data) ? data : []) as IssueDto[];
  return `<issues${XSI_DECLARATION}>${issues.map((i) => renderIssueElement(i)).join('')}</issues>`;
}

/** The search answer `{issue: […]}` as `<issueCompacts xmlns:xsi><issue…/>…</issueCompacts>`. */
export function renderIssueCompacts(data: unknown): string {
  const issues = (data as { issue?: IssueDto[] }).issue ?? [];
  return `<issueCompacts${XSI_DECLARATION}>${issues.map((i) => renderIssueElement(i)).join('')}</issueCompacts>`;
}
