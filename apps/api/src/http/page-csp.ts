/**
 * The Content-Security-Policy of the pages this server serves (the API docs page and the web
 * console): scripts and everything else from this origin only (no CDN, no inline script), no
 * framing, no form posting anywhere (the console's forms are sent by its scripts). Inline style
 * attributes are allowed: Swagger UI sets them, and the console colours chips through them.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
