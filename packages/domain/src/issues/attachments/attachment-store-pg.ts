import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { DomainError } from '../../errors.js';
import type { Orm } from '../../orm/open-orm.js';
import { type AttachmentStore, SHA256_HEX, tooLarge } from './attachment-store.js';

/**
 * The bytes in PostgreSQL itself (migration 0056): every host of the database serves every file,
 * and the database's backup holds them.
 *
 * A content is one row of `attachment_blobs` (its SHA-256, size and chunk count) and its bytes
 * are rows of `attachment_chunks` of `ATTACHMENT_CHUNK_BYTES` each (the last one shorter), keyed
 * by (blob, index). An upload streams into a blob of its own whose hash is null until the last
 * byte is in; then, in one statement, it either names its blob by the hash or, when that content
 * is already stored, renews the stored one and deletes its own. The unique index on the hash
 * decides between two hosts storing the same content at once: the second one's naming fails, it
 * runs the statement again, finds the first and deletes its own copy. Nothing is ever overwritten,
 * so no reader sees a mixture.
 *
 * Chunk rows rather than large objects: a large object is written through a descriptor that lives
 * only as long as one transaction, so an upload would hold a transaction (and a pooled connection)
 * open for as long as its client takes to send 25 MB; large objects are not removed with the rows
 * that name them (`lo_unlink`, `vacuumlo`), and the managed and distributed PostgreSQL-compatible
 * services this product may run on often do not offer them. Chunk rows are plain rows: each
 * statement is short, deletion cascades, and `pg_dump` of the database holds them.
 */

/**
 * 60 KiB, so that a chunk read back stays a short-lived object of V8's young generation: pg
 * answers a bytea as hexadecimal text (`\x` and two characters a byte: 122,882 characters here),
 * and a string past 128 KiB is allocated among V8's large objects, which only a full collection
 * frees. With 256 KiB chunks, 8 downloads of 25 MB at once took a server from 129 to 250 MiB
 * resident; with 60 KiB, from 127 to 148 (docs/benchmarks.md). An upload holds four chunks at
 * most, a download two; a 25 MB file is 407 statements each way (an upload writes three at once),
 * which the attachment bench measures.
 */
export const ATTACHMENT_CHUNK_BYTES = 60 * 1024;

/** The part of pg's Pool (the ORM's own, see `poolOf`) the store uses. */
type PgQuery = {
  query(config: {
    text: string;
    values?: unknown[];
  }): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
};

/** The ORM's pg Pool (MikroORM's public `getNativeClient`). */
async function poolOf(orm: Orm): Promise<PgQuery> {
  return (await orm.em.getConnection().getNativeClient()) as PgQuery;
}

const UNIQUE_VIOLATION = '23505';
/** Chunks of one upload written at once. */
const IN_FLIGHT = 3;
/** How often an upload in progress renews its blob for the sweep (whose grace is an hour). */
const RENEW_MS = 5 * 60_000;

export function createPostgresAttachmentStore(
  orm: Orm,
  options: { chunkBytes?: number } = {},
): AttachmentStore {
  const chunkBytes = options.chunkBytes ?? ATTACHMENT_CHUNK_BYTES;
  let pool: Promise<PgQuery> | undefined;
  const db = () => (pool ??= poolOf(orm));

  /** Names blob `id` by `hash`, or renews the stored content of `hash` and deletes blob `id`. */
  async function settle(id: string, hash: string, size: number, chunks: number): Promise<void> {
    const q = await db();
    for (let attempt = 0; ; attempt++) {
      try {
        const { rows } = await q.query({
          text:
            'with existing as (update attachment_blobs set stored_at = now() where hash = $1 returning id), ' +
            'named as (update attachment_blobs set hash = $1, size = $3, chunk_count = $4, stored_at = now() ' +
            'where id = $2 and not exists (select 1 from existing) returning id) ' +
            'select (select count(*) from existing)::int as existing',
          values: [hash, id, size, chunks],
        });
        if (Number(rows[0]?.existing) > 0)
          await q.query({ text: 'delete from attachment_blobs where id = $1', values: [id] });
        return;
      } catch (error) {
        // Another upload of the same content named its blob first: the next attempt finds it.
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION || attempt >= 3) throw error;
      }
    }
  }

  return {
    kind: 'postgresql',
    async put(source, maxBytes) {
      const q = await db();
      const { rows } = await q.query({ text: 'insert into attachment_blobs default values returning id' });
      const id = String(rows[0]?.id);
      const hash = createHash('sha256');
      let buffer = Buffer.allocUnsafe(chunkBytes);
      let filled = 0;
      let size = 0;
      let chunks = 0;
      let renewed = Date.now();
      // Chunks being written (each on a pooled connection of its own) and the first failure.
      const writing = new Set<Promise<void>>();
      let failure: unknown;
      const flush = async () => {
        const data = filled === chunkBytes ? buffer : buffer.subarray(0, filled);
        const index = chunks++;
        buffer = Buffer.allocUnsafe(chunkBytes);
        filled = 0;
        const write: Promise<void> = q
          .query({
            text: 'insert into attachment_chunks (blob_id, idx, data) values ($1, $2, $3)',
            values: [id, index, data],
          })
          .then(
            () => void writing.delete(write),
            (error: unknown) => {
              writing.delete(write);
              failure ??= error;
            },
          );
        writing.add(write);
        // A slow upload renews its blob now and then: the sweep does not take it for an interrupted one.
        if (Date.now() - renewed > RENEW_MS) {
          renewed = Date.now();
          await q.query({
            text: 'update attachment_blobs set stored_at = now() where id = $1',
            values: [id],
          });
        }
        // The source waits while the chunks in flight are written: at most IN_FLIGHT + 1 of an
        // upload are in memory, and receiving the next overlaps writing the last.
        if (writing.size >= IN_FLIGHT) await Promise.race(writing);
        if (failure) throw failure;
      };
      try {
        for await (const piece of source) {
          size += piece.length;
          if (size > maxBytes) throw tooLarge(maxBytes);
          hash.update(piece);
          let offset = 0;
          while (offset < piece.length) {
            const n = Math.min(piece.length - offset, chunkBytes - filled);
            buffer.set(piece.subarray(offset, offset + n), filled);
            filled += n;
            offset += n;
            if (filled === chunkBytes) await flush();
          }
        }
        if (filled > 0) await flush();
        await Promise.all(writing);
        if (failure) throw failure;
        const digest = hash.digest('hex');
        await settle(id, digest, size, chunks);
        return { hash: digest, size };
      } catch (error) {
        // No chunk may land after its blob is gone.
        await Promise.all(writing);
        await q.query({ text: 'delete from attachment_blobs where id = $1', values: [id] }).catch(() => {});
        throw error;
      }
    },
    async open(hash) {
      if (!SHA256_HEX.test(hash)) throw DomainError.notFound('Attachment file', hash);
      const q = await db();
      const { rows } = await q.query({
        text: 'select id, chunk_count from attachment_blobs where hash = $1',
        values: [hash],
      });
      const blob = rows[0];
      if (!blob) throw DomainError.notFound('Attachment file', hash);
      return chunkStream(q, String(blob.id), Number(blob.chunk_count), hash);
    },
    async has(hash) {
      if (!SHA256_HEX.test(hash)) return false;
      const { rows } = await (await db()).query({
        text: 'select 1 from attachment_blobs where hash = $1',
        values: [hash],
      });
      return rows.length > 0;
    },
    async *hashes() {
      const q = await db();
      let after = '';
      for (;;) {
        const { rows } = await q.query({
          text: 'select hash from attachment_blobs where hash > $1 order by hash limit 1000',
          values: [after],
        });
        for (const row of rows) yield String(row.hash);
        if (rows.length < 1000) return;
        after = String(rows[rows.length - 1]?.hash);
      }
    },
    async removeUnused(_em, graceMs) {
      // One statement: a blob an upload renews meanwhile is re-checked under its row lock (and
      // kept); an upload that renews it after this deleted it stores its own copy instead.
      const result = await (await db()).query({
        text:
          'delete from attachment_blobs b where b.stored_at < now() - $1 * interval $$1 millisecond$$ ' +
          'and (b.hash is null or not exists (select 1 from issue_attachments a where a.content_hash = b.hash))',
        values: [graceMs],
      });
      return result.rowCount ?? 0;
    },
  };
}

/**
 * The chunks of blob `id` in order, one statement each, fetched as the reader drains them (the
 * stream's buffer holds at most one chunk beyond the one being sent).
 */
function chunkStream(q: PgQuery, id: string, count: number, hash: string): Readable {
  let next = 0;
  return new Readable({
    read() {
      if (next >= count) return void this.push(null);
      const index = next++;
      q.query({
        text: 'select data from attachment_chunks where blob_id = $1 and idx = $2',
        values: [id, index],
      }).then(
        ({ rows }) => {
          const data = rows[0]?.data;
          // Deleted while being read (its last attachment was deleted and swept): the download ends short.
          if (!Buffer.isBuffer(data))
            this.destroy(new Error(`attachment content ${hash} lost chunk ${index} while being read`));
          else this.push(data);
        },
        (error: unknown) => this.destroy(error as Error),
      );
    },
  });
}

/**
 * How many contents attachment rows name that the database does not hold: files an earlier
 * version kept in a folder, until `trackline attachments migrate` has moved them.
 */
export async function countContentsMissingFromDatabase(orm: Orm): Promise<number> {
  const { rows } = await (await poolOf(orm)).query({
    text:
      'select count(distinct a.content_hash)::int as n from issue_attachments a ' +
      'where not exists (select 1 from attachment_blobs b where b.hash = a.content_hash)',
  });
  return Number(rows[0]?.n ?? 0);
}
