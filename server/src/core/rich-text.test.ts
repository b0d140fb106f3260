import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installRichTextSanitiser, richText } from '@p8/contract/rich-text';
import { sanitizeRichText } from './rich-text.ts';

/** Classic stored-XSS payloads: none may survive anywhere in the stored HTML. */
const ATTACKS: Array<[string, string]> = [
  ['script tag', '<p>hi</p><script>alert(1)</script>'],
  ['script with odd case and attributes', '<ScRiPt src="//evil.example/x.js"></ScRiPt><p>ok</p>'],
  ['img onerror', '<img src="x" onerror="alert(1)">'],
  ['img onerror without quotes', '<img src=x onerror=alert(1)//>'],
  ['event handler on a paragraph', '<p onclick="alert(1)" onmouseover="alert(2)">text</p>'],
  ['javascript: link', '<a href="javascript:alert(1)">click</a>'],
  ['javascript: link with entities and whitespace', '<a href="jav&#x09;ascript:alert(1)">click</a><a href=" JaVaScRiPt:alert(1)">x</a>'],
  ['data: html link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
  ['vbscript link', '<a href="vbscript:msgbox(1)">x</a>'],
  ['javascript: image', '<img src="javascript:alert(1)">'],
  ['data: svg image', '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">'],
  ['style expression', '<p style="width: expression(alert(1))">x</p>'],
  ['style url', '<p style="background-image: url(javascript:alert(1))">x</p>'],
  ['style behaviour', '<p style="behavior: url(x.htc); -moz-binding: url(x)">x</p>'],
  ['style tag', '<style>body{background:url("javascript:alert(1)")}</style><p>x</p>'],
  ['inline svg', '<svg onload="alert(1)"><script>alert(2)</script></svg>'],
  ['svg animate href', '<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text>x</text></a></svg>'],
  ['math with link', '<math><mtext><a href="javascript:alert(1)">x</a></mtext></math>'],
  ['iframe', '<iframe src="https://evil.example" srcdoc="<script>alert(1)</script>"></iframe>'],
  ['object and embed', '<object data="x.swf"></object><embed src="x.swf">'],
  ['form with action', '<form action="https://evil.example"><input name="password"><button formaction="javascript:alert(1)">go</button></form>'],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['base href', '<base href="javascript:alert(1)//">'],
  ['comment trick', '<!--<img src="--><img src=x onerror=alert(1)//">'],
  ['nested script', '<scr<script>ipt>alert(1)</scr</script>ipt>'],
  ['video onerror', '<video src="x.mp4" onerror="alert(1)"></video>'],
  ['protocol-relative image', '<img src="//evil.example/pixel.gif">'],
  ['srcset', '<img src="https://ok.example/a.png" srcset="javascript:alert(1) 1x">'],
];

/** What must never appear in stored HTML. */
const FORBIDDEN = /<script|<style|<svg|<math|<iframe|<object|<embed|<form|<meta|<base|\son[a-z]+\s*=|javascript:|vbscript:|data:|expression\(|url\(|-moz-binding|behavior|srcdoc|srcset|src="\/\//i;

describe('sanitizeRichText', () => {
  it.each(ATTACKS)('neutralises %s', (_name, html) => {
    const out = sanitizeRichText(html);
    expect(out).not.toMatch(FORBIDDEN);
    // Sanitising is stable: what was stored sanitises to itself.
    expect(sanitizeRichText(out)).toBe(out);
  });

  // (Style declarations come back without the space after the colon: the sanitiser rewrites them.)
  it('keeps the formatting the editor writes', () => {
    const html = [
      '<h1>Title</h1><h2>Sub</h2><h3>Third</h3>',
      '<p style="text-align:center">centred <strong>bold</strong> <em>italic</em> <u>under</u> <s>struck</s> <code>x = 1</code></p>',
      '<p><span style="color:#ff0000;background-color:rgb(255, 255, 0)">coloured</span></p>',
      '<ul><li>one</li><li>two</li></ul><ol start="3"><li>three</li></ol>',
      '<blockquote><p>quote</p></blockquote><pre><code>code</code></pre><hr />',
      '<table><thead><tr><th colspan="2">Head</th></tr></thead><tbody><tr><td>a</td><td rowspan="2">b</td></tr></tbody></table>',
      '<p><a href="https://example.com/page?a=1&amp;b=2">link</a> <a href="mailto:sales@example.com">mail</a> <a href="/api/base/file/1/2026-01/x.pdf">file</a></p>',
      '<p><img src="https://cdn.example.com/a.png" alt="a" width="300" /><img src="/api/base/file/1/2026-01/0b4c0a9e-5d1a-4c4e-9a43-1f2e3d4c5b6a.png" alt="up" /></p>',
      '<video src="/api/base/file/1/2026-01/0b4c0a9e-5d1a-4c4e-9a43-1f2e3d4c5b6a.mp4" controls="true" preload="metadata" style="max-width:100%"></video>',
    ].join('');
    expect(sanitizeRichText(html)).toBe(html);
  });

  it('makes a new-window link unable to reach our window', () => {
    expect(sanitizeRichText('<a href="https://x.example" target="_blank">x</a>')).toBe('<a href="https://x.example" target="_blank" rel="noopener noreferrer nofollow">x</a>');
  });

  it('keeps the text of removed tags it can show, escaped', () => {
    expect(sanitizeRichText('<p>1 < 2 & <b>3</b></p><custom-tag>kept text</custom-tag>')).toBe('<p>1 &lt; 2 &amp; <b>3</b></p>kept text');
  });
});

describe('richText() contract fields', () => {
  const schema = z.object({ content: richText(100) });

  it('sanitise through the installed sanitiser, and refuse too long or unstorable text', () => {
    installRichTextSanitiser(sanitizeRichText);
    expect(schema.parse({ content: '<p onclick="x()">hi</p><script>1</script>' })).toEqual({ content: '<p>hi</p>' });
    expect(schema.safeParse({ content: 'x'.repeat(101) }).success).toBe(false);
    expect(schema.safeParse({ content: 'a\u0000b' }).error?.issues[0].message).toBe('TextNotStorable');
  });
});
