import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative, sep } from 'node:path';
import { PAGE_CSP } from './page-csp.js';

/**
 * The web console (`apps/web`, built by Vite) served at `/`: its files are read once from the
 * build folder into memory (a few hundred KB), each with its type and ETag. Paths that name no
 * file and have no extension (`/issue/PRJ-1`, `/admin/users`) get `index.html`: the console
 * routes them itself. Hashed assets (`/assets/index-3f2a.js`) are cached for a year; the page
 * itself is revalidated every time, so a new build shows at the next load.
 */
export type ConsoleFiles = {
  /** Serves the file or page for a GET or HEAD; false when the request is not the console's. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
};

type ConsoleFile = { type: string; body: Buffer; etag: string; immutable: boolean };

const TYPES: Record<string, string> = {
  '.html': 'text/html;charset=UTF-8',
  '.js': 'text/javascript;charset=UTF-8',
  '.css': 'text/css;charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json;charset=UTF-8',
  '.txt': 'text/plain;charset=UTF-8',
  '.woff2': 'font/woff2',
};

/** Source maps stay on disk: they are for developers, not served. */
const SERVED = (name: string) => !name.endsWith('.map');

function readTree(dir: string, root = dir, files = new Map<string, ConsoleFile>()) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) readTree(path, root, files);
    else if (SERVED(name)) {
      const body = readFileSync(path);
      const ext = name.slice(name.lastIndexOf('.'));
      const url = `/${relative(root, path).split(sep).join('/')}`;
      files.set(url, {
        type: TYPES[ext] ?? 'application/octet-stream',
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
        immutable: url.startsWith('/assets/'),
      });
    }
  }
  return files;
}

/** Paths the console never answers: the API's own. */
const API_PATH = /^\/(rest|trpc)(\/|$)|^\/openapi\.json$|^\/health$/;

/** The console's files from `dir`, or null when the console was not built there. */
export function loadConsoleFiles(dir: string): ConsoleFiles | null {
  if (!existsSync(join(dir, 'index.html'))) return null;
  const files = readTree(dir);
  const page = files.get('/index.html') as ConsoleFile;
  return {
    serve(req, res, pathname) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      if (API_PATH.test(pathname)) return false;
      const last = pathname.slice(pathname.lastIndexOf('/') + 1);
      const file = files.get(pathname) ?? (last.includes('.') ? undefined : page);
      if (!file) return false;
      res.setHeader('Content-Type', file.type);
      res.setHeader('ETag', file.etag);
      res.setHeader('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (file.type.startsWith('text/html')) {
        res.setHeader('Content-Security-Policy', PAGE_CSP);
        res.setHeader('Referrer-Policy', 'same-origin');
        res.setHeader('X-Frame-Options', 'DENY');
      }
      if (req.headers['if-none-match'] === file.etag) {
        res.statusCode = 304;
        res.end();
        return true;
      }
      res.statusCode = 200;
      res.setHeader('Content-Length', file.body.length);
      res.end(req.method === 'HEAD' ? undefined : file.body);
      return true;
    },
  };
}
