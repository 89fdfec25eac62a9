import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PAGE_CSP } from './page-csp.js';

/**
 * `GET /rest/docs`: the OpenAPI document rendered by Swagger UI (swagger-ui-dist), every file
 * served from this server (no CDN). The page runs only scripts of this origin: its start-up
 * code is a file (`docs/start.js`), not an inline script, so the CSP can say `script-src 'self'`.
 */
export const DOCS_PATH = '/rest/docs';

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Trackline legacy REST API</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
<link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/start.js"></script>
</body>
</html>
`;

// The document's URL relative to the page (`/rest/docs` → `/rest/openapi.json`), so that a
// proxy prefix in front of the server keeps working.
const START = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: new URL('openapi.json', window.location.href.replace(/\\/docs\\/?(#.*)?$/, '/')).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
  });
});
`;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript;charset=UTF-8',
  '.css': 'text/css;charset=UTF-8',
  '.png': 'image/png',
};

/** The files of swagger-ui-dist the page uses: nothing else of the package is served. */
const DIST_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png'];

let assets: Map<string, { type: string; body: Buffer }> | null = null;

function loadAssets() {
  if (assets) return assets;
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  assets = new Map(
    DIST_FILES.map((file) => [
      file,
      {
        type: TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream',
        body: readFileSync(join(dist, file)),
      },
    ]),
  );
  assets.set('start.js', { type: TYPES['.js'] as string, body: Buffer.from(START) });
  return assets;
}

/** Whether `pathname` is the docs page or one of its assets. */
export const isDocsPath = (pathname: string) =>
  pathname === DOCS_PATH || pathname === `${DOCS_PATH}/` || pathname.startsWith(`${DOCS_PATH}/`);

/** Serves the page or an asset; false when `pathname` names no asset (the caller answers 404). */
export function serveDocs(method: string, pathname: string, res: ServerResponse): boolean {
  const send = (status: number, type: string, body: Buffer | string) => {
    res.statusCode = status;
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.end(method === 'HEAD' ? undefined : body);
  };
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (pathname === DOCS_PATH || pathname === `${DOCS_PATH}/`) {
    send(200, 'text/html;charset=UTF-8', PAGE);
    return true;
  }
  const asset = loadAssets().get(pathname.slice(DOCS_PATH.length + 1));
  if (!asset) return false;
  send(200, asset.type, asset.body);
  return true;
}
