import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, ROOT_PASSWORD } from '../../harness.js';
import { type AttachmentServer, startAttachmentServer } from './attachment-server.js';
import { closing, partHead, streamingPost } from './multipart-stream.js';

/**
 * Issue 20, item 7: deleting an issue while a file was uploading to it answered 500 (the
 * attachment row's foreign key) on both databases. The upload now answers 404 for the issue,
 * and keeps no row.
 */
describe('issue 20 item 7: an issue deleted during an upload to it', () => {
  let server: AttachmentServer;
  beforeAll(async () => {
    server = await startAttachmentServer(1_000_000);
    await server.request('PUT', '/rest/admin/project/DU?projectName=Deleted&projectLeadLogin=root', {
      user: 'root',
    });
    await server.request('PUT', '/rest/issue?project=DU&summary=going', { user: 'root' });
  });
  afterAll(() => server.close());

  /** Resolves once the store receives the file: the upload has begun (its issue was found). */
  async function uploadBegun(): Promise<void> {
    for (let i = 0; i < 500; i++) {
      if ((await server.uploadsInProgress()) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the upload never began');
  }

  it('answers 404 naming the issue (not 500) and keeps nothing', async () => {
    const head = partHead('filename="half.txt"');
    const first = Buffer.from('x'.repeat(1000));
    const rest = Buffer.concat([Buffer.from('y'.repeat(1000)), closing]);
    const upload = streamingPost(
      `${server.url}/rest/issue/DU-1/attachment`,
      { authorization: basic('root', ROOT_PASSWORD), accept: 'application/json' },
      head.length + first.length + rest.length,
    );
    await upload.write(Buffer.concat([head, first]));
    await uploadBegun();
    const deleted = await server.request('DELETE', '/rest/issue/DU-1', { user: 'root' });
    expect(deleted.status, deleted.text).toBe(200);
    const answer = await upload.end(rest);
    expect(answer.status, answer.text).toBe(404);
    expect(JSON.parse(answer.text).value).toBe('Issue [ DU-1 ] not found.');
    expect(await server.rows()).toEqual([]);
  });
});
