import { describe, expect, it } from 'vitest';
import { XML_BODY_READERS } from '../src/rest/import-xml.js';
import { readXmlDocument, XmlSyntaxError } from '../src/rest/xml-document.js';

/** The import documents' reader: what XML 1.0 says for what those documents use, and refusals. */
const read = (xml: string) => readXmlDocument(xml, 64);

describe('readXmlDocument', () => {
  it('reads elements, attributes in either quote, text, CDATA, and skips the prolog, comments and PIs', () => {
    const doc = read(
      '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!-- c --><issues a="1" b=\'two\'>\n' +
        '<issue><field name="summary"><value>x &amp; &lt;y&gt; &quot;&apos;</value></field>' +
        '<field name="description"><value><![CDATA[<b>raw & kept</b>]]></value></field><?pi x?>' +
        '<comment author="a" text="l1&#xA;l2&#10;&#x1F600;" created="1"/></issue></issues>\n',
    );
    expect(doc.name).toBe('issues');
    expect(doc.attributes).toEqual({ a: '1', b: 'two' });
    const issue = doc.children[0];
    expect(issue?.children.map((c) => c.name)).toEqual(['field', 'field', 'comment']);
    expect(issue?.children[0]?.children[0]?.text).toBe('x & <y> "\'');
    expect(issue?.children[1]?.children[0]?.text).toBe('<b>raw & kept</b>');
    expect(issue?.children[2]?.attributes.text).toBe('l1\nl2\n😀');
  });

  it('normalises literal line breaks and tabs in attributes to spaces (references are kept)', () => {
    expect(read('<a t="x\ny\tz&#9;"/>').attributes.t).toBe('x y z\t');
  });

  it.each([
    ['<a>', /<a> is not closed/],
    ['<a></b>', /end tag <\/b> that closes <a>/],
    ['<a/><b/>', /second root/],
    ['x<a/>', /text outside/],
    ['<a/>x', /text outside/],
    ['<a b="1" b="2"/>', /duplicate attribute b/],
    ['<a b=1/>', /without quotes/],
    ['<a b/>', /without a value/],
    ['<a b="1"c="2"/>', /malformed start tag/],
    ['<a b="<"/>', /< inside attribute/],
    ['<a>&foo;</a>', /undefined entity &foo;/],
    ['<a>& b</a>', /bare &/],
    ['<a>&#0;</a>', /invalid character reference/],
    ['<a>&#xD800;</a>', /invalid character reference/],
    ['<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', /DOCTYPE/],
    ['<a><!-- open </a>', /unclosed comment/],
    ['<a><![CDATA[ open </a>', /unclosed CDATA/],
    ['<a b="open/>', /unclosed attribute b/],
    ['', /no root element/],
    ['<a', /unclosed start tag/],
  ])('refuses %j', (xml, message) => {
    expect(() => read(xml)).toThrow(XmlSyntaxError);
    expect(() => read(xml)).toThrow(message);
  });

  it('refuses nesting deeper than the limit without recursion', () => {
    const deep = (n: number) => `${'<a>'.repeat(n)}${'</a>'.repeat(n)}`;
    expect(read(deep(64)).name).toBe('a');
    expect(() => read(deep(65))).toThrow(/deeper than 64/);
    expect(() => read('<a>'.repeat(200_000))).toThrow(/deeper than 64/);
  });
});

describe('the issue import reader (straight into the input, no tree)', () => {
  const readIssues = XML_BODY_READERS.importIssues;
  it('takes fields, values and comments from attributes or child elements, and skips the rest', () => {
    const xml =
      '<issues><note>skipped</note><issue x="1">' +
      '<field name="summary"><value>a <![CDATA[<b>]]> c<i>not this</i> d</value><other>no</other></field>' +
      '<field name="Fix versions"><value>1.0</value><value/><value>2.0</value></field>' +
      '<comment author="alice" created="5" text="attr wins"><text>child loses</text></comment>' +
      '<comment><author>bob</author><text>first</text><text>second</text><created>6</created><updated>7</updated></comment>' +
      '<field><value>nameless</value></field><junk><field name="deep"><value>no</value></field></junk>' +
      '</issue><issue/></issues>';
    expect(readIssues(xml)).toEqual({
      issues: [
        {
          fields: [
            { name: 'summary', values: ['a <b> c d'] },
            { name: 'Fix versions', values: ['1.0', '', '2.0'] },
            { name: '', values: ['nameless'] },
          ],
          comments: [
            { author: 'alice', text: 'attr wins', created: '5' },
            { author: 'bob', text: 'first', created: '6', updated: '7' },
          ],
        },
        { fields: [], comments: [] },
      ],
    });
  });
  it('reports bad XML before a wrong root, and a wrong root as such', () => {
    expect(() => readIssues('<list><issue></list>')).toThrow(/not well-formed XML/);
    expect(() => readIssues('<list><issue/></list>')).toThrow(/root element <issues>/);
    expect(() => readIssues('<!DOCTYPE issues><issues/>')).toThrow(/DOCTYPE/);
  });
});
