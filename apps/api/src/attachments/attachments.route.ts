import type { IncomingMessage, ServerResponse } from 'node:http';
import { isStorableTimestamp, mediaTypeOf } from '@trackline/contracts';
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
import { MultipartReader } from '../rest/multipart/multipart-reader.js';
import { MAX_PART_HEADER_BYTES } from '../rest/multipart.js';
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
  // The caller's rights, the quotas and the query's group are checked before a byte of the body is read.
  const target = {
    issue: route.issue,
    maxBytes: options.maxBytes,
    quotas: options.quotas,
    group: query.get('group') ?? undefined,
  };
  const upload =
    route.mode === 'import'
      ? await beginImportUpload(call.em, call.actor, options.store, {
          ...target,
          authorLogin: query.get('authorLogin') ?? undefined,
          created: created === null ? undefined : Number(created),
        })
      : await beginUpload(call.em, call.actor, options.store, target);
  // `group` may come as a form field too (before or after the files): it wins over the query's.
  let formGroup: string | undefined;
  await readFiles(
    req,
    (source, name, contentType) => upload.addFile({ source, name, contentType }),
    (name, value) => {
      if (name === 'group') formGroup = value;
    },
  );
  // All files or none: the rows are written only once every file is stored.
  const stored = await upload.commit({ group: formGroup });
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

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Text fields an upload form may carry beside its files (`group`), and how long each may be. */
const MAX_FORM_FIELDS = 50;
const MAX_FORM_FIELD_BYTES = 4096;

/**
 * Streams each file part of a multipart body through `store`, in order, and hands each text
 * field to `field`; 400 when there is no file. The parts are read by the lenient reader of
 * rest/multipart/ (the JetBrains library's `filename="x";` with its trailing semicolon and
 * per-part Content-Length, `filename*=`, LF line ends); file names are UTF-8, raw or as RFC 5987
 * `filename*`. A file input left empty by a browser (`filename=""`) is no file.
 */
async function readFiles(
  req: IncomingMessage,
  store: (source: AsyncIterable<Buffer>, filename: string, mimeType: string) => Promise<void>,
  field: (name: string, value: string) => void,
): Promise<void> {
  const type = req.headers['content-type'] ?? '';
  if (mediaTypeOf(type) !== 'multipart/form-data')
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Attachments are uploaded as multipart/form-data.');
  const reader = new MultipartReader(req, type, {
    maxHeaderBytes: MAX_PART_HEADER_BYTES,
    maxParts: MAX_FILES + MAX_FORM_FIELDS,
    // Each file is bounded by the store (one byte over the limit reaches it, which refuses it).
    maxBytes: Number.POSITIVE_INFINITY,
  });
  let files = 0;
  let fields = 0;
  try {
    for (let part = await reader.next(); part; part = await reader.next()) {
      if (part.filename === '') continue; // an empty file input: skipped by the next read
      if (part.filename !== undefined) {
        if (++files > MAX_FILES) throw DomainError.invalid('body', `at most ${MAX_FILES} files per upload`);
        await store(part.body, part.filename, part.contentType);
        continue;
      }
      if (++fields > MAX_FORM_FIELDS)
        throw DomainError.invalid('body', `at most ${MAX_FORM_FIELDS} form fields per upload`);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.body) {
        size += chunk.length;
        if (size > MAX_FORM_FIELD_BYTES)
          throw DomainError.invalid(part.name, `must be at most ${MAX_FORM_FIELD_BYTES} bytes`);
        chunks.push(chunk);
      }
      let value: string;
      try {
        value = utf8.decode(Buffer.concat(chunks));
      } catch {
        throw DomainError.invalid(part.name, 'is not UTF-8');
      }
      field(part.name, value);
    }
  } catch (error) {
    // A refusal answers at once; the rest of the body is drained, not parsed.
    reader.abandon();
    throw error;
  }
  if (files === 0) throw DomainError.invalid('body', 'carries no file');
}
