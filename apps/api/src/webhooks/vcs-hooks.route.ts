import type { IncomingMessage, ServerResponse } from 'node:http';
import { VCS_HOSTS, type VcsHost } from '@trackline/contracts';
import { type Em, findIntegrationByApiKey, type Orm, receiveHook } from '@trackline/domain';
import { readRawBody } from '../rest/request-body.js';

/** GitHub delivers up to 25 MB; nothing larger is a push worth buffering. */
export const VCS_HOOK_BODY_LIMIT = 25 * 1024 * 1024;

const PATH = /^\/rest\/vcsHooksReceiver\/([^/]+)\/?$/;

/** The host named by a receiver path, or null when the path is not a receiver's. */
export function vcsHookHost(pathname: string): VcsHost | 'unknown' | null {
  const name = PATH.exec(pathname)?.[1];
  if (name === undefined) return null;
  return (VCS_HOSTS as readonly string[]).includes(name) ? (name as VcsHost) : 'unknown';
}

/**
 * The receiver's statements (the integration by apiKey, the delivery row) go through one entity
 * manager per ORM that never loads entities: no fork per hook. A duplicate's report forks its own.
 */
const statementsEms = new WeakMap<Orm, Em>();
function statementsEm(orm: Orm): Em {
  let em = statementsEms.get(orm);
  if (!em) {
    em = orm.em.fork() as Em;
    statementsEms.set(orm, em);
  }
  return em;
}

const headerReader = (req: IncomingMessage) => (name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * `POST /rest/vcsHooksReceiver/{github|gitlab|bitbucket}?apiKey=...`: a plain route, not a
 * procedure, because the signature covers the raw bytes and the payload may be a form field,
 * a JSON body or a query parameter. The apiKey is checked before the body is read; the push
 * is stored and answered (202) without waiting for the commands. Refusals are thrown as
 * DomainErrors and rendered by the server like any other error.
 */
export async function handleVcsHook(
  orm: Orm,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  host: VcsHost,
  onStored?: () => void,
): Promise<void> {
  const em = statementsEm(orm);
  const integration = await findIntegrationByApiKey(em, host, url.searchParams.get('apiKey'));
  const body = await readRawBody(req, VCS_HOOK_BODY_LIMIT);
  const receipt = await receiveHook(em, integration, {
    host,
    header: headerReader(req),
    contentType: req.headers['content-type'],
    body,
    queryPayload: url.searchParams.get('payload'),
  });
  if (receipt.deliveryId !== undefined) onStored?.();
  const text = JSON.stringify(receipt.body);
  res.statusCode = receipt.status;
  if (receipt.body.delivery !== undefined) {
    const path = `/rest/admin/vcsIntegration/${encodeURIComponent(integration.name)}/delivery/${receipt.body.delivery}`;
    res.setHeader('Location', path);
  }
  res.setHeader('Content-Type', 'application/json;charset=UTF-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
