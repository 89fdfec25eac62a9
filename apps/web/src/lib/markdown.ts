import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

/**
 * Descriptions and comments as Markdown (CommonMark with GitHub's tables and strikethrough):
 * markdown-it with raw HTML off (`<script>` in a comment shows as typed), then DOMPurify over its
 * output, so what reaches the page is a short list of formatting tags whatever the parser does.
 * Links keep http(s), mailto and relative addresses only (never `javascript:` or `data:`), carry
 * `rel="noopener noreferrer"`, and open outside the console when they leave it. Images are not
 * rendered (their Markdown shows as typed): the page's CSP loads images from this origin only,
 * and a picture from elsewhere would tell that host who reads the issue.
 */
const parser = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
parser.disable(['image']);

/** Addresses a link may have: http(s), mailto, or one without a scheme (a path, a fragment). */
const SAFE_URL = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

const ALLOWED_TAGS = [
  'p',
  'br',
  'strong',
  'em',
  's',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];

let hooked = false;
function purifier() {
  if (!hooked) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName !== 'A') return;
      node.setAttribute('rel', 'noopener noreferrer');
      const href = node.getAttribute('href') ?? '';
      if (/^https?:/i.test(href) && new URL(href, window.location.href).origin !== window.location.origin)
        node.setAttribute('target', '_blank');
    });
    hooked = true;
  }
  return DOMPurify;
}

/** The safe HTML of a Markdown text. */
export function renderMarkdown(text: string): string {
  return purifier().sanitize(parser.render(text).trim(), {
    ALLOWED_TAGS,
    ALLOWED_ATTR: ['href', 'title', 'start', 'align'],
    ALLOWED_URI_REGEXP: SAFE_URL,
    ADD_ATTR: ['target'],
  });
}
