import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../errors.js';
import type { Em } from '../../orm/em.js';
import { placeholders } from '../../orm/sql-fragments.js';

/**
 * Where attachment bytes live, by SHA-256 of their content (identical content is stored once):
 * a folder (`createFileAttachmentStore`: SQLite's, or one shared folder of several hosts), or
 * the PostgreSQL database itself (`createPostgresAttachmentStore`), which every host of that
 * database serves. The API picks one at start (`apps/api/src/attachments/attachment-stores.ts`).
 */
export type AttachmentStore = {
  readonly kind: 'directory' | 'postgresql';
  /**
   * Streams `source` into the store, refusing more than `maxBytes` with PAYLOAD_TOO_LARGE (what
   * was written of it is removed). Identical content is stored once; an upload of content that is
   * already stored renews it, so the sweep leaves it to the row the upload is about to write.
   */
  put(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<{ hash: string; size: number }>;
  /** The stored bytes of `hash` as a stream; NOT_FOUND when the content is not stored. */
  open(hash: string): Promise<Readable>;
  /** Whether the complete content of `hash` is stored. */
  has(hash: string): Promise<boolean>;
  /** The hash of every content stored completely (uploads in progress are not listed). */
  hashes(): AsyncIterable<string>;
  /**
   * Removes the contents no attachment row uses that were stored (or renewed) more than
   * `graceMs` ago, and what interrupted uploads left; an upload whose row is not committed yet
   * keeps its content. Returns how many contents were removed.
   */
  removeUnused(em: Em, graceMs: number): Promise<number>;
};

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Refuses the byte past `maxBytes` of an upload as it streams. */
export const tooLarge = (maxBytes: number) =>
  new DomainError('PAYLOAD_TOO_LARGE', `An attachment may have at most ${maxBytes} bytes.`);

/**
 * A store in `dir`: `<dir>/ab/abcdef…` (two-character fan-out), temporary files in `<dir>/tmp`.
 * Several hosts may share the folder (a network file system): each upload writes a file of its
 * own and renames it into place, so two hosts storing the same content at once each rename
 * identical bytes over the other's.
 */
export function createFileAttachmentStore(dir: string): AttachmentStore {
  const pathOf = (hash: string) => join(dir, hash.slice(0, 2), hash);
  const tmp = join(dir, 'tmp');
  const temporaryName = () => join(tmp, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  const modified = (path: string) =>
    stat(path).then(
      (s) => s.mtimeMs,
      () => null,
    );

  async function* walk(): AsyncGenerator<string> {
    const fans = await readdir(dir).catch(() => [] as string[]);
    for (const fan of fans.sort()) {
      if (!/^[0-9a-f]{2}$/.test(fan)) continue;
      for (const name of (await readdir(join(dir, fan)).catch(() => [] as string[])).sort())
        if (SHA256_HEX.test(name)) yield name;
    }
  }

  return {
    kind: 'directory',
    async put(source, maxBytes) {
      await mkdir(tmp, { recursive: true });
      const temporary = temporaryName();
      const hash = createHash('sha256');
      let size = 0;
      try {
        await pipeline(
          source,
          async function* (chunks: AsyncIterable<Uint8Array>) {
            for await (const chunk of chunks) {
              size += chunk.length;
              if (size > maxBytes) throw tooLarge(maxBytes);
              hash.update(chunk);
              yield chunk;
            }
          },
          createWriteStream(temporary, { flags: 'wx' }),
        );
        const digest = hash.digest('hex');
        await mkdir(join(dir, digest.slice(0, 2)), { recursive: true });
        // Same content already stored: the rename replaces it with identical bytes, and a newer
        // modification time (what renews it for the sweep).
        await rename(temporary, pathOf(digest));
        return { hash: digest, size };
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async open(hash) {
      if (!SHA256_HEX.test(hash)) throw DomainError.notFound('Attachment file', hash);
      try {
        await stat(pathOf(hash));
      } catch {
        throw DomainError.notFound('Attachment file', hash);
      }
      return createReadStream(pathOf(hash));
    },
    async has(hash) {
      return SHA256_HEX.test(hash) && (await modified(pathOf(hash))) !== null;
    },
    hashes: walk,
    async removeUnused(em, graceMs) {
      const limit = Date.now() - graceMs;
      const old: string[] = [];
      for await (const hash of walk()) {
        const mtime = await modified(pathOf(hash));
        if (mtime !== null && mtime < limit) old.push(hash);
      }
      let removed = 0;
      for (let i = 0; i < old.length; i += 500) {
        const batch = old.slice(i, i + 500);
        const used = await usedHashes(em, batch);
        for (const hash of batch) if (!used.has(hash) && (await retire(hash, limit, em))) removed++;
      }
      // Temporary files of uploads a crash interrupted.
      for (const name of await readdir(tmp).catch(() => [] as string[])) {
        const mtime = await modified(join(tmp, name));
        if (mtime !== null && mtime < limit) await rm(join(tmp, name), { force: true });
      }
      return removed;
    },
  };

  /**
   * Removes one unused file without racing an upload of the same content: the file is first
   * renamed aside (an upload from now on writes a new one), and put back when it turns out to
   * have been renewed meanwhile (its modification time) or to be used after all (a row committed
   * since the batch was read).
   */
  async function retire(hash: string, limit: number, em: Em): Promise<boolean> {
    await mkdir(tmp, { recursive: true });
    const aside = `${temporaryName()}.sweep`;
    try {
      await rename(pathOf(hash), aside);
    } catch {
      return false;
    }
    const mtime = await modified(aside);
    if ((mtime !== null && mtime >= limit) || (await usedHashes(em, [hash])).has(hash)) {
      // Back in place unless an upload stored it again meanwhile (then identical bytes are there).
      await link(aside, pathOf(hash)).catch(() => {});
      await rm(aside, { force: true });
      return false;
    }
    await rm(aside, { force: true });
    return true;
  }
}

/** Which of `hashes` an attachment row uses. */
export async function usedHashes(em: Em, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await em.execute<{ content_hash: string }[]>(
    `select distinct content_hash from issue_attachments where content_hash in (${placeholders(hashes)})`,
    hashes,
  );
  return new Set(rows.map((r) => r.content_hash));
}
