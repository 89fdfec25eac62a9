import { describe, expect, it } from 'vitest';
import { negotiate } from './negotiate.js';

describe('negotiate (XML-first, as the original)', () => {
  const cases: [string | undefined, 'xml' | 'json', 'xml' | 'json'][] = [
    [undefined, 'xml', 'xml'],
    ['', 'xml', 'xml'],
    ['*/*', 'xml', 'xml'],
    ['*/*', 'json', 'json'],
    ['application/*', 'xml', 'xml'],
    ['text/html,application/xhtml+xml,*/*;q=0.8', 'xml', 'xml'],
    ['text/plain', 'xml', 'xml'],
    ['application/json', 'xml', 'json'],
    ['application/json', 'json', 'json'],
    ['application/xml', 'json', 'xml'],
    ['application/xml;q=0.5, application/json', 'xml', 'json'],
    ['application/json;q=0.4, application/xml;q=0.9', 'xml', 'xml'],
    ['application/json, */*;q=0.1', 'xml', 'json'],
    ['*/*, application/json', 'xml', 'json'],
    ['application/json;q=0, */*', 'xml', 'xml'],
    ['application/xml, application/json', 'json', 'xml'],
    ['application/json, application/xml', 'xml', 'json'],
    ['text/*', 'xml', 'xml'],
  ];
  for (const [accept, fallback, expected] of cases) {
    it(`${accept ?? '(none)'} with default ${fallback} → ${expected}`, () => {
      expect(negotiate(accept, fallback)).toBe(expected);
    });
  }
});
