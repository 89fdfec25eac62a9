import { oneLine } from '../../text/user-text.js';

/**
 * Invisible formatting characters (Unicode Cf: bidi overrides such as U+202E, zero-width
 * characters, the BOM): a name holding them can show an extension it does not have
 * (`invoice\u202Efdp.exe` displays as `invoiceexe.pdf`). They are removed, not refused: the
 * file is still accepted, under the name a reader sees and that its bytes are downloaded as.
 */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/**
 * A file name as stored: NFC, control characters as spaces, formatting characters removed,
 * path separators replaced, trimmed, at most 255 characters; `attachment` when nothing is left.
 */
export function attachmentName(name: string): string {
  const cleaned = oneLine(name.normalize('NFC').replace(FORMAT_CHARACTERS, '')).replace(/[/\\]/g, '_').trim();
  return [...cleaned].slice(0, 255).join('') || 'attachment';
}

/** A declared content type when it is a plain `type/subtype`, else `application/octet-stream`. */
export const attachmentType = (type: string | undefined) =>
  type && /^[\w.+-]+\/[\w.+-]+$/.test(type) && type.length <= 200
    ? type.toLowerCase()
    : 'application/octet-stream';
