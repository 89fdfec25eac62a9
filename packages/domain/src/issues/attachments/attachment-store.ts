import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../errors.js';

/**
 * Where attachment bytes live: by SHA-256 of their content, outside the database. The API
 * passes one in (a directory under the data directory); tests may pass a temporary one.
 */
export type AttachmentStore = {
  /**
   * Streams `source` into the store, refusing more than `maxBytes` with PAYLOAD_TOO_LARGE (the
   * partial file is removed). Identical content is stored once.
   */
  put(source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<{ hash: string; size: number }>;
  /** The stored bytes of `hash` as a stream; NOT_FOUND when the file is gone. */
  open(hash: string): Promise<Readable>;
  /** Hashes of the stored files last written more than `olderThanMs` ago (for the sweep). */
  storedBefore(olderThanMs: number): Promise<string[]>;
  remove(hash: string): Promise<void>;
};

const HASH = /^[0-9a-f]{64}$/;

/** A store in `dir`: `<dir>/ab/abcdef…` (two-character fan-out), temporary files in `<dir>/tmp`. */
export function createFileAttachmentStore(dir: string): AttachmentStore {
  const pathOf = (hash: string) => join(dir, hash.slice(0, 2), hash);
  const tmp = join(dir, 'tmp');
  return {
    async put(source, maxBytes) {
      await mkdir(tmp, { recursive: true });
      const temporary = join(tmp, `${Date.now()}-${randomBytes(8).toString('hex')}`);
      const hash = createHash('sha256');
      let size = 0;
      try {
        await pipeline(
          source,
          async function* (chunks: AsyncIterable<Uint8Array>) {
            for await (const chunk of chunks) {
              size += chunk.length;
              if (size > maxBytes)
                throw new DomainError(
                  'PAYLOAD_TOO_LARGE',
                  `An attachment may have at most ${maxBytes} bytes.`,
                );
              hash.update(chunk);
              yield chunk;
            }
          },
          createWriteStream(temporary, { flags: 'wx' }),
        );
        const digest = hash.digest('hex');
        await mkdir(join(dir, digest.slice(0, 2)), { recursive: true });
        // Same content already stored: the rename replaces it with identical bytes.
        await rename(temporary, pathOf(digest));
        return { hash: digest, size };
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async open(hash) {
      if (!HASH.test(hash)) throw DomainError.notFound('Attachment file', hash);
      try {
        await stat(pathOf(hash));
      } catch {
        throw DomainError.notFound('Attachment file', hash);
      }
      return createReadStream(pathOf(hash));
    },
    async storedBefore(olderThanMs) {
      const found: string[] = [];
      const limit = Date.now() - olderThanMs;
      let fans: string[];
      try {
        fans = await readdir(dir);
      } catch {
        return found;
      }
      for (const fan of fans) {
        if (!/^[0-9a-f]{2}$/.test(fan)) continue;
        for (const name of await readdir(join(dir, fan))) {
          if (!HASH.test(name)) continue;
          const info = await stat(join(dir, fan, name)).catch(() => null);
          if (info && info.mtimeMs < limit) found.push(name);
        }
      }
      return found;
    },
    async remove(hash) {
      if (HASH.test(hash)) await rm(pathOf(hash), { force: true });
    },
  };
}
