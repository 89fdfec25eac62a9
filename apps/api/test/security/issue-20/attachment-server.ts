import { type AttachmentQuotas, IssueAttachment } from '@trackline/domain';
import { testAttachmentStore } from '../../attachment-contents.js';
import {
  basic,
  fork,
  ROOT_PASSWORD,
  startTestServer,
  type TestServer,
  USER_PASSWORD,
} from '../../harness.js';

/** A test server with its own attachment store, and helpers to upload and count. */
export type AttachmentServer = TestServer & {
  upload(path: string, login: string, body: FormData, headers?: Record<string, string>): Promise<Response>;
  /** Attachment rows in the database. */
  rows(): Promise<{ name: string; size: number; author: string }[]>;
  /** The contents the store holds (uploads in progress not counted). */
  storedFiles(): Promise<string[]>;
  /** Uploads the store is receiving. */
  uploadsInProgress(): Promise<number>;
};

export async function startAttachmentServer(
  maxBytes: number,
  quotas?: AttachmentQuotas,
): Promise<AttachmentServer> {
  const store = testAttachmentStore();
  const server = await startTestServer({ handler: { attachments: { ...store.option, maxBytes, quotas } } });
  return {
    ...server,
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
    storedFiles: () => store.contents(server.orm),
    uploadsInProgress: () => store.uploadsInProgress(server.orm),
    async close() {
      await server.close();
      store.remove();
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
