import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { isStorableTimestamp } from '@trackline/contracts';
import {
  type Actor,
  type AttachmentQuotas,
  type AttachmentStore,
  type AttachmentView,
  beginImportUpload,
  beginUpload,
  DomainError,
  type Em,
  openAttachment,
} from '@trackline/domain';
import busboy from 'busboy';
import { negotiate } from '../rest/negotiate.js';

/*
 * The attachment routes that move file bytes, served beside the tRPC procedures (like the VCS
 * hook receiver) because their bodies are multipart streams and their answers raw files:
 *   - POST /rest/issue/{issue}/attachment (CREATE_ATTACHMENT_ISSUE),
 *   - POST /rest/import/{issue}/attachment?authorLogin&group&created (IMPORT_DATA),
 *   - GET  /rest/issue/{issue}/attachment/{id} (the download URL; readers of the issue only),
 *   - GET  /_persistent/{name}?file={id}&issue={issue} (the same download under the original's path
 *     shape: the root-relative `fileUrl url` the python library prefixes with its base URL).
 * Listing and deleting are procedures (`attachments.router.ts`). Every file part of the form is
 * an attachment, whatever its field name (clients name it `files`, after the file, or one field
 * per file). The caller is resolved before a byte of the body is read.
 */

export type AttachmentOptions = {
  /** Where contents live; `server.ts` chooses as `serve.ts` does by default when absent (tests). */
  store: AttachmentStore;
  maxBytes: number;
  /** Per user, per issue and in all; the domain's defaults when absent. */
  quotas?: AttachmentQuotas | undefined;
};
export const DEFAULT_MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;

const UPLOAD = /^\/rest\/(issue|import)\/([^/]+)\/attachment\/?$/;
const DOWNLOAD = /^\/rest\/issue\/([^/]+)\/attachment\/([^/]+)\/?$/;
const PERSISTENT = /^\/_persistent\/[^/]+$/;
/** At most this many files in one upload. */
const MAX_FILES = 20;

export type AttachmentRoute =
  | { kind: 'upload'; mode: 'issue' | 'import'; issue: string }
  | { kind: 'download'; issue: string; id: number };

/** A path segment decoded; a malformed escape is answered like a missing issue. */
function segment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw DomainError.notFound('Issue', raw);
  }
}

/** An attachment id of a URL (any other text names no attachment: 0, answered 404 like a missing one). */
const attachmentId = (id: string | null) => (id !== null && /^\d{1,10}$/.test(id) ? Number(id) : 0);

/** The attachment route `method path` addresses, or null (the other methods go to the procedures). */
export function attachmentRoute(
  method: string | undefined,
  pathname: string,
  search: URLSearchParams = new URLSearchParams(),
): AttachmentRoute | null {
  if (method === 'GET' && PERSISTENT.test(pathname))
    return { kind: 'download', issue: search.get('issue') ?? '', id: attachmentId(search.get('file')) };
  if (method === 'POST') {
    const upload = UPLOAD.exec(pathname);
    if (upload)
      return {
        kind: 'upload',
        mode: upload[1] as 'issue' | 'import',
        issue: segment(upload[2] as string),
      };
  }
  if (method === 'GET') {
    const download = DOWNLOAD.exec(pathname);
    if (download) {
      return {
        kind: 'download',
        issue: segment(download[1] as string),
        id: attachmentId(download[2] as string),
      };
    }
  }
  return null;
}

export const attachmentUrl = (baseUrl: string, a: Pick<AttachmentView, 'issueId' | 'id'>) =>
  `${baseUrl}/rest/issue/${encodeURIComponent(a.issueId)}/attachment/${a.id}`;

/** Types a browser could run as a page are served as plain bytes (the disposition says download anyway). */
const ACTIVE_TYPES = /html|xml|svg|javascript|ecmascript/;

type Call = { em: Em; actor: Actor; baseUrl: string };

export async function handleAttachment(
  call: Call,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  route: AttachmentRoute,
  options: AttachmentOptions,
): Promise<void> {
  if (route.kind === 'download') {
    const file = await openAttachment(call.em, call.actor, options.store, route.issue, route.id);
    res.statusCode = 200;
    res.setHeader(
      'Content-Type',
      ACTIVE_TYPES.test(file.contentType) ? 'application/octet-stream' : file.contentType,
    );
    res.setHeader('Content-Length', file.size);
    res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`);
    file.stream.pipe(res);
    await new Promise<void>((resolve) => res.once('close', resolve));
    file.stream.destroy();
    return;
  }
  const query = url.searchParams;
  const created = query.get('created');
  // The same storable range as every other time input (PostgreSQL refuses later years with an error).
  if (created !== null && !(/^\d{1,15}$/.test(created) && isStorableTimestamp(Number(created))))
    throw DomainError.invalid('created', 'must be a time in ms since the epoch, before the year 10000');
  // The caller's rights and the quotas are checked before a byte of the body is read.
  const target = { issue: route.issue, maxBytes: options.maxBytes, quotas: options.quotas };
  const upload =
    route.mode === 'import'
      ? await beginImportUpload(call.em, call.actor, options.store, {
          ...target,
          authorLogin: query.get('authorLogin') ?? undefined,
          group: query.get('group') ?? undefined,
          created: created === null ? undefined : Number(created),
        })
      : await beginUpload(call.em, call.actor, options.store, target);
  await readFiles(req, options.maxBytes, (source, name, contentType) =>
    upload.addFile({ source, name, contentType }),
  );
  // All files or none: the rows are written only once every file is stored.
  const stored = await upload.commit();
  const first = stored[0] as AttachmentView;
  res.statusCode = 201;
  res.setHeader('Location', attachmentUrl(call.baseUrl, first));
  // As every legacy create: an empty XML body; JSON callers get the stored attachments.
  if (negotiate(req.headers.accept, 'xml') === 'json') {
    const body = JSON.stringify(stored.map((a) => toFileUrl(call.baseUrl, a)));
    res.setHeader('Content-Type', 'application/json;charset=UTF-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  } else {
    res.setHeader('Content-Type', 'application/xml;charset=UTF-8');
    res.setHeader('Content-Length', 0);
    res.end();
  }
}

/**
 * The original's `fileUrl url`: root-relative, `/_persistent/{name}?file=…&v=0&c=false` (its page
 * "Get Attachments of an Issue"). The python library cuts every url to start at `/_persistent`
 * and prefixes its own base URL; a server under a path prefix is reached the same way.
 */
export const persistentUrl = (a: Pick<AttachmentView, 'issueId' | 'id' | 'name'>) =>
  `/_persistent/${encodeURIComponent(a.name)}?file=${a.id}&issue=${encodeURIComponent(a.issueId)}&v=0&c=false`;

/** The legacy `fileUrl` attributes of one attachment. */
export const toFileUrl = (_baseUrl: string, a: AttachmentView) => ({
  url: persistentUrl(a),
  name: a.name,
  authorLogin: a.authorLogin,
  ...(a.group ? { group: a.group } : {}),
  created: a.created,
  id: String(a.id),
});

/**
 * Streams each file part of a multipart body through `store`, in order; 400 when there is none.
 * File names are UTF-8, raw (as browsers and curl send them) or as RFC 5987 `filename*`
 * (busboy's default charset for raw parameters is Latin-1, which turned `résumé` into `rÃ©sumÃ©`).
 */
function readFiles(
  req: IncomingMessage,
  maxBytes: number,
  store: (source: Readable, filename: string, mimeType: string) => Promise<void>,
): Promise<void> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type))
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Attachments are uploaded as multipart/form-data.');
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // One byte over the limit reaches the store, which refuses the file (busboy would truncate it).
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: maxBytes + 1, files: MAX_FILES, fields: 50, parts: 100 },
        defParamCharset: 'utf8',
      });
    } catch (error) {
      return reject(DomainError.invalid('body', `is not a multipart form (${(error as Error).message})`));
    }
    let files = 0;
    let chain: Promise<void> = Promise.resolve();
    let failure: unknown;
    const finish = () =>
      void chain.then(() => {
        if (failure) reject(failure);
        else if (files === 0) reject(DomainError.invalid('body', 'carries no file'));
        else resolve();
      });
    // A refusal answers at once; the rest of the body is drained, not parsed.
    const fail = (error: unknown) => {
      failure ??= error;
      req.unpipe(parser);
      req.resume();
      finish();
    };
    parser.on('file', (_field, stream, info) => {
      chain = chain.then(async () => {
        if (failure) return void stream.resume();
        try {
          await store(stream, info.filename ?? 'attachment', info.mimeType);
          files++;
        } catch (error) {
          stream.resume();
          fail(error);
        }
      });
    });
    parser.on('filesLimit', () => fail(DomainError.invalid('body', `at most ${MAX_FILES} files per upload`)));
    parser.on('error', (error) =>
      fail(DomainError.invalid('body', `is not a well-formed multipart form (${(error as Error).message})`)),
    );
    parser.on('close', finish);
    req.on('aborted', () => fail(DomainError.invalid('body', 'the upload was interrupted')));
    req.pipe(parser);
  });
}
