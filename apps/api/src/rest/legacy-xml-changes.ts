import type { IssueChangeDto } from '@trackline/contracts';
import { escapeXml as attr, escapeTextOneLine as text } from './xml.js';

const each = (name: string, values: readonly string[] | undefined) =>
  (values ?? []).map((v) => `<${name}>${text(v)}</${name}>`).join('');

/**
 * `GET /issue/{issue}/changes` as the original wrote it: `<changes><change><field name="State">
 * <newValue>Open</newValue><oldValue>Reopened</oldValue></field>…<field name="updated"><value>…
 * </value></field><field name="updaterName"><value>root</value></field></change>…</changes>`.
 */
export function renderIssueChanges(data: unknown): string {
  const changes = data as IssueChangeDto[];
  const body = changes
    .map((change) => {
      const fields = change.field
        .map(
          (f) =>
            `<field name="${attr(f.name)}">${f.value !== undefined ? each('value', [f.value]) : ''}` +
            `${each('newValue', f.newValue)}${each('oldValue', f.oldValue)}</field>`,
        )
        .join('');
      return `<change>${fields}</change>`;
    })
    .join('');
  return `<changes>${body}</changes>`;
}
