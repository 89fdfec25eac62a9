import type { IssueActivityEntry, IssueChangeDto } from '@trackline/contracts';
import { escapeXml as attr, escapeTextOneLine as text } from './xml.js';

const each = (name: string, values: readonly string[] | undefined) =>
  (values ?? []).map((v) => `<${name}>${text(v)}</${name}>`).join('');

const fieldXml = (name: string, newValue?: string[], oldValue?: string[], value?: string) =>
  `<field name="${attr(name)}">${value !== undefined ? each('value', [value]) : ''}` +
  `${each('newValue', newValue)}${each('oldValue', oldValue)}</field>`;

/**
 * `GET /issue/{issue}/changes` as the original wrote it: `<changes><change><field name="State">
 * <newValue>Open</newValue><oldValue>Reopened</oldValue></field>…<field name="updated"><value>…
 * </value></field><field name="updaterName"><value>root</value></field></change>…</changes>`.
 */
export function renderIssueChanges(data: unknown): string {
  const changes = data as IssueChangeDto[];
  const body = changes
    .map((change) => {
      const fields = change.field.map((f) => fieldXml(f.name, f.newValue, f.oldValue, f.value)).join('');
      return `<change>${fields}</change>`;
    })
    .join('');
  return `<changes>${body}</changes>`;
}

function eventBody(e: IssueActivityEntry): string {
  switch (e.kind) {
    case 'change':
      return e.fields.map((f) => fieldXml(f.name, f.newValues, f.oldValues)).join('');
    case 'comment':
      return `<text>${text(e.text)}</text>`;
    case 'attachment':
      return `<attachment name="${attr(e.name)}"/>`;
    case 'link-added':
    case 'link-removed':
      return `<link phrase="${attr(e.phrase)}" issue="${attr(e.issue.id)}" summary="${attr(e.issue.summary)}"/>`;
    case 'tag-added':
    case 'tag-removed':
      return `<tag name="${attr(e.tag)}"/>`;
  }
}

/**
 * `GET /event/issueEvents/{issue}` (the JetBrains library's `getEvents`; the original never
 * documented the feed, see its contract): `<events><event kind="change" at="ms" author="root"
 * authorFullName="…"><field name="State"><newValue>…</newValue><oldValue>…</oldValue></field>
 * </event><event kind="comment" …><text>…</text></event>…</events>`.
 */
export function renderIssueEvents(data: unknown): string {
  const events = (data as IssueActivityEntry[])
    .map(
      (e) =>
        `<event kind="${e.kind}" at="${e.at}" author="${attr(e.by.login)}" authorFullName="${attr(e.by.fullName)}">` +
        `${eventBody(e)}</event>`,
    )
    .join('');
  return `<events>${events}</events>`;
}
