import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AttachmentQuotas, createFileAttachmentStore, IssueAttachment } from '@trackline/domain';
import {
  basic,
  fork,
  ROOT_PASSWORD,
  startTestServer,
  type TestServer,
  USER_PASSWORD,
} from '../../harness.js';

/** A test server with its own attachment directory, and helpers to upload and count. */
export type AttachmentServer = TestServer & {
  dir: string;
  upload(path: string, login: string, body: FormData, headers?: Record<string, string>): Promise<Response>;
  /** Attachment rows in the database. */
  rows(): Promise<{ name: string; size: number; author: string }[]>;
  /** Files in the store (not counting its temporary folder). */
  storedFiles(): string[];
};

export async function startAttachmentServer(
  maxBytes: number,
  quotas?: AttachmentQuotas,
): Promise<AttachmentServer> {
  const dir = mkdtempSync(join(tmpdir(), 'trackline-issue20-'));
  const server = await startTestServer({
    handler: { attachments: { store: createFileAttachmentStore(dir), maxBytes, quotas } },
  });
  return {
    ...server,
    dir,
    upload: (path, login, body, headers = {}) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: basic(login, login === 'root' ? ROOT_PASSWORD : USER_PASSWORD),
          accept: 'application/json',
          ...headers,
        },
        body,
      }),
    async rows() {
      const rows = await fork(server.orm).find(
        IssueAttachment,
        {},
        { populate: ['author'], orderBy: { id: 'asc' } },
      );
      return rows.map((r) => ({ name: r.name, size: r.size, author: r.author.login }));
    },
    storedFiles: () =>
      readdirSync(dir)
        .filter((fan) => /^[0-9a-f]{2}$/.test(fan))
        .flatMap((fan) => readdirSync(join(dir, fan))),
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A multipart form of files (`name`, content). */
export function filesForm(...files: [name: string, content: string][]): FormData {
  const data = new FormData();
  for (const [name, content] of files)
    data.append('files', new Blob([content], { type: 'text/plain' }), name);
  return data;
}

export const bytes = (n: number, fill = 'x') => fill.repeat(n);
