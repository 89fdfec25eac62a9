import type { IssueFieldValue } from '@trackline/client';
import { readableText } from '../lib/colors';

/** A field value as a chip, in its bundle colour when it has one; the empty text when none. */
export function Chip({
  value,
  empty,
  title,
}: {
  value?: IssueFieldValue | undefined;
  empty?: string | null | undefined;
  title?: string;
}) {
  if (!value) return <span className="chip chip-empty">{empty ?? '—'}</span>;
  const style = value.color
    ? {
        backgroundColor: value.color.bg,
        color: readableText(value.color.bg, value.color.fg),
        borderColor: value.color.bg,
      }
    : undefined;
  return (
    <span className={`chip${value.resolved ? ' chip-resolved' : ''}`} style={style} title={title}>
      {value.fullName ?? value.name}
    </span>
  );
}
