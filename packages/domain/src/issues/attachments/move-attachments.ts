import type { Em } from '../../orm/em.js';
import type { AttachmentStore } from './attachment-store.js';

export type MoveReport = {
  /** Contents copied by this run. */
  moved: number;
  /** Contents the target held already (an earlier run, or an upload since the switch). */
  present: number;
  /** Hashes attachment rows name that neither store holds: those files answer 404. */
  missing: string[];
  /** Hashes whose bytes in the source no longer have that hash (damaged files): not copied. */
  damaged: string[];
};

/**
 * Copies every content an attachment row uses from `from` (the folder an installation kept its
 * files in) into `to` (the store it uses now), one content at a time in the order of their
 * hashes. Resumable and safe to run twice, or beside the running servers: a content the target
 * holds is skipped, a content is named in the target only once its last byte is in (an
 * interrupted copy leaves an unnamed partial one, which the sweep removes and the next run
 * copies again), and the target stores each hash once. The source is only read.
 */
export async function moveAttachmentContents(
  em: Em,
  from: AttachmentStore,
  to: AttachmentStore,
  progress: (hash: string, outcome: 'moved' | 'present' | 'missing' | 'damaged') => void = () => {},
): Promise<MoveReport> {
  const report: MoveReport = { moved: 0, present: 0, missing: [], damaged: [] };
  let after = '';
  for (;;) {
    const rows = await em.execute<{ content_hash: string }[]>(
      'select distinct content_hash from issue_attachments where content_hash > ? order by content_hash limit 500',
      [after],
    );
    for (const { content_hash: hash } of rows) {
      const outcome = await moveOne(from, to, hash);
      if (outcome === 'moved') report.moved++;
      else if (outcome === 'present') report.present++;
      else report[outcome].push(hash);
      progress(hash, outcome);
    }
    if (rows.length < 500) return report;
    after = (rows[rows.length - 1] as { content_hash: string }).content_hash;
  }
}

async function moveOne(
  from: AttachmentStore,
  to: AttachmentStore,
  hash: string,
): Promise<'moved' | 'present' | 'missing' | 'damaged'> {
  if (await to.has(hash)) return 'present';
  if (!(await from.has(hash))) return 'missing';
  const stored = await to.put(await from.open(hash), Number.MAX_SAFE_INTEGER);
  // Stored under the hash of what was read (no row names it: the sweep removes it).
  return stored.hash === hash ? 'moved' : 'damaged';
}
