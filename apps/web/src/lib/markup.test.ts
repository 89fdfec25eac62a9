import { describe, expect, it } from 'vitest';
import { decodeEntities, parseMarkup } from './markup.js';
import { applySuggestion, quoteValue, segmentsOf } from './segments.js';

describe('parseMarkup (suggestion descriptions, never innerHTML)', () => {
  it('reads <b> as bold and decodes the entities of escaped text', () => {
    expect(parseMarkup('<b>Priority</b> &lt;critical&gt; &amp; more')).toEqual([
      { text: 'Priority', bold: true },
      { text: ' <critical> & more', bold: false },
    ]);
  });

  it('keeps any other tag as text, so a hostile value shows as typed', () => {
    const parts = parseMarkup('<img src=x onerror=alert(1)><script>x</script>');
    expect(parts).toEqual([{ text: '<img src=x onerror=alert(1)><script>x</script>', bold: false }]);
  });

  it('decodes numeric references and leaves unknown or out-of-range ones alone', () => {
    expect(decodeEntities('&#39;a&#x41;&#1114112;&nope;')).toBe("'aA&#1114112;&nope;");
  });
});

describe('segmentsOf and applySuggestion', () => {
  it('cuts the text by ranges, fills the gaps and marks a missing end', () => {
    expect(
      segmentsOf('State Fixd ', [
        { start: 0, end: 5, style: 'field' },
        { start: 6, end: 10, style: 'error' },
        { start: 11, end: 11, style: 'error' },
      ]),
    ).toEqual([
      { text: 'State', style: 'field', start: 0 },
      { text: ' ', style: null, start: 5 },
      { text: 'Fixd', style: 'error', start: 6 },
      { text: ' ', style: null, start: 10 },
      { text: ' ', style: 'error', start: 11 },
    ]);
    expect(
      segmentsOf('abc', [
        { start: 2, end: 99, style: 'x' },
        { start: 0, end: 3, style: 'y' },
      ])
        .map((s) => s.text)
        .join(''),
    ).toBe('abc');
  });

  it('applies a completion where the server says, with the caret it gives', () => {
    expect(
      applySuggestion('Priority Cr x', { o: 'Critical', pre: '', suf: ' ', cs: 9, ce: 11, cp: 18 }),
    ).toEqual({
      text: 'Priority Critical  x',
      caret: 18,
    });
    expect(quoteValue('In Progress')).toBe('{In Progress}');
    expect(quoteValue('Fixed')).toBe('Fixed');
  });
});

describe('periods', async () => {
  const { formatPeriod, parsePeriod } = await import('./period.js');
  it('reads and writes the period syntax of work items', () => {
    expect(parsePeriod('1w 2d 3h 4m')).toBe(2400 + 960 + 180 + 4);
    expect(parsePeriod('90')).toBe(90);
    expect(parsePeriod('1h30m')).toBe(90);
    expect(parsePeriod('soon')).toBeNull();
    expect(formatPeriod(2400 + 960 + 180 + 4)).toBe('1w 2d 3h 4m');
    expect(formatPeriod(0)).toBe('0m');
  });
});

describe('chip text colours', async () => {
  const { contrast, luminance, readableText } = await import('./colors.js');
  it('keeps a bundle pair that reads, and replaces one below 4.5:1', () => {
    expect(readableText('#8e1600', '#ffffff')).toBe('#ffffff');
    expect(readableText('#2f9890', '#ffffff')).toBe('#1f2328');
    for (const bg of [
      '#8d5100',
      '#ce6700',
      '#409600',
      '#0070e4',
      '#900052',
      '#0050a1',
      '#2f9890',
      '#8e1600',
      '#dc0083',
      '#7dbd36',
      '#ff7123',
    ]) {
      const fg = readableText(bg, '#ffffff');
      expect(contrast(luminance(bg) as number, luminance(fg) as number), bg).toBeGreaterThanOrEqual(4.5);
    }
  });
});
