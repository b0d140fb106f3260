import { describe, expect, it } from 'vitest';
import { editorValue, isEmptyHtml } from './html.ts';

describe('rich-text value', () => {
  it('turns empty content into an empty string', () => {
    for (const html of ['', '<p></p>', '<p><br></p>', '<p>&nbsp; </p><p></p>', '<h2> </h2>', null, undefined]) {
      expect(editorValue(html)).toBe('');
    }
  });

  it('keeps text, images and videos', () => {
    expect(editorValue('<p>Hello</p>')).toBe('<p>Hello</p>');
    expect(isEmptyHtml('<p><img src="/a.png"></p>')).toBe(false);
    expect(isEmptyHtml('<video controls src="/a.mp4"></video>')).toBe(false);
  });
});
