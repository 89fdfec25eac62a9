// The search benchmark's data (issue 21): 20 projects, 200 users, and a deterministic stream of import
// bodies (mulberry32 from a fixed seed, words from a Zipf-distributed vocabulary of 5,000), so every
// run imports the same million issues. Shared by search.mjs (the vocabulary's words for its
// queries) and search-bodies.mjs (the worker that writes the bodies ahead of the requests).
export const PROJECTS = 20;
export const USERS = 200;
export const BATCH = 100;
export const SUBSYSTEMS = ['Core', 'UI', 'Backend', 'Docs'];
export const project = (p) => `S${String(p + 1).padStart(2, '0')}`;
const STATES = ['Submitted', 'Open', 'In Progress', 'Fixed', 'Verified', 'Duplicate'];
const RESOLVED = new Set(['Fixed', 'Verified', 'Duplicate']);
const PRIORITIES = ['Show-stopper', 'Critical', 'Major', 'Normal', 'Minor'];
const TYPES = ['Bug', 'Feature', 'Task', 'Cosmetics', 'Exception'];
const T0 = Date.UTC(2015, 0, 1);
const SPAN = Date.UTC(2025, 0, 1) - T0;

// A deterministic generator (mulberry32) and a Zipf vocabulary of pronounceable words.
let seed = 12345;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'ta',
  'vo',
  'zi',
  'po',
  'se',
  'du',
  'fa',
  'ge',
  'hi',
  'jo',
  'bu',
];
export const VOCABULARY = Array.from({ length: 5000 }, (_, i) => {
  let word = '';
  let n = i + 17;
  for (let k = 0; k < 3 || n > 0; k++) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return `${word}x`;
});
const CUMULATIVE = (() => {
  const weights = VOCABULARY.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
})();
const word = () => {
  const r = random();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((CUMULATIVE[mid] ?? 1) < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo];
};
const words = (n) => Array.from({ length: n }, word).join(' ');
const pick = (list) => list[Math.floor(random() * list.length)];

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const field = (name, value) => `<field name="${name}"><value>${esc(String(value))}</value></field>`;

function issueXml(number, created) {
  const state = pick(STATES);
  const author = () => `u${Math.floor(random() * USERS) + 1}`;
  const subsystem = random() < 0.5 ? field('Subsystem', pick(SUBSYSTEMS)) : '';
  return (
    `<issue>${field('numberInProject', number)}${field('summary', words(8))}${field('description', words(32))}` +
    `${field('created', created)}${field('updated', created + 60_000)}${field('reporterName', author())}` +
    (RESOLVED.has(state) ? field('resolved', created + 120_000) : '') +
    `${field('State', state)}${field('Priority', pick(PRIORITIES))}${field('Type', pick(TYPES))}` +
    `${field('Assignee', author())}${subsystem}` +
    `<comment author="${author()}" text="${words(40)}" created="${created + 10_000}"/>` +
    `<comment author="${author()}" text="${words(40)}" created="${created + 20_000}"/></issue>`
  );
}

/**
 * The import requests in order: `{ project, count, body }` for issues 0 .. issues-1, 100 per
 * request, the projects taken in turn, creation times spread evenly over ten years.
 */
export function* importRequests(issues) {
  const numbers = new Array(PROJECTS).fill(0);
  let batches = 0;
  for (let first = 0; first < issues; first += BATCH) {
    const p = batches++ % PROJECTS;
    const count = Math.min(BATCH, issues - first);
    const parts = [];
    for (let i = 0; i < count; i++)
      parts.push(issueXml(++numbers[p], T0 + Math.floor(((first + i) / issues) * SPAN)));
    yield { project: project(p), count, body: `<issues>${parts.join('')}</issues>` };
  }
}
