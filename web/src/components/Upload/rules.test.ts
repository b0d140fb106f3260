import { describe, expect, it } from 'vitest';
import { acceptAttribute, ATTACHMENT_TYPES, checkFile, fileNameOfUrl, formatSize, IMAGE_TYPES, isAccepted, LOGO_TYPES, MB, urlsOf } from './rules.ts';

const image = { accept: IMAGE_TYPES, maxSizeMB: 5, limit: 5, kind: 'image' as const };
const file = { maxSizeMB: 500, limit: 10, kind: 'file' as const };

describe('upload rules', () => {
  it('accepts the nine image types and refuses others with "wrong format"', () => {
    for (const ext of ['png', 'jpg', 'jpeg', 'gif', 'apng', 'bmp', 'pjpeg', 'webp', 'avif']) {
      expect(checkFile({ name: `a.${ext.toUpperCase()}`, size: 1 }, image)).toBeNull();
    }
    expect(checkFile({ name: 'a.svg', size: 1 }, image)).toEqual({ key: 'wrongFormat', types: IMAGE_TYPES.join(', ') });
  });

  it('refuses an image over 5 MB with "too big"', () => {
    expect(checkFile({ name: 'a.png', size: 5 * MB }, image)).toBeNull();
    expect(checkFile({ name: 'a.png', size: 5 * MB + 1 }, image)).toEqual({ key: 'tooBig', size: '5MB' });
  });

  it('allows at most 5 images ("at most N images") and 10 files ("at most N, remove first")', () => {
    expect(checkFile({ name: 'a.png', size: 1 }, image, 4, 0)).toBeNull();
    expect(checkFile({ name: 'a.png', size: 1 }, image, 4, 1)).toEqual({ key: 'tooManyImages', count: 5 });
    expect(checkFile({ name: 'a.zip', size: 1 }, file, 10)).toEqual({ key: 'tooManyFiles', count: 10 });
  });

  it('checks file types only when a list is given, and sizes against 500 MB', () => {
    expect(checkFile({ name: 'a.exe', size: 1 }, file)).toBeNull();
    expect(checkFile({ name: 'a.zip', size: 501 * MB }, file)).toEqual({ key: 'tooBig', size: '500MB' });
  });

  it('logo: png, jpg or gif; attachments: jpg, jpeg, png, xls, xlsx, pdf, doc, docx', () => {
    expect(isAccepted({ name: 'logo.webp' }, LOGO_TYPES)).toBe(false);
    expect(['logo.gif', 'logo.png', 'logo.jpg'].every((name) => isAccepted({ name }, LOGO_TYPES))).toBe(true);
    expect(['a.pdf', 'b.docx', 'c.xls'].every((name) => isAccepted({ name }, ATTACHMENT_TYPES))).toBe(true);
    expect(isAccepted({ name: 'c.zip' }, ATTACHMENT_TYPES)).toBe(false);
  });

  it('judges a name without extension by its MIME type', () => {
    expect(isAccepted({ name: 'clipboard', type: 'image/png' }, IMAGE_TYPES)).toBe(true);
    expect(isAccepted({ name: 'clipboard', type: 'text/html' }, IMAGE_TYPES)).toBe(false);
  });

  it('formats sizes and the accept attribute', () => {
    expect([formatSize(5), formatSize(200), formatSize(1536), formatSize(0.5)]).toEqual(['5MB', '200MB', '1.5GB', '512KB']);
    expect(acceptAttribute(['png', '.jpg'])).toBe('.png,.jpg');
    expect(acceptAttribute(undefined)).toBeUndefined();
  });

  it('reads values as url lists and names files by their url', () => {
    expect(urlsOf('https://x/a.png')).toEqual(['https://x/a.png']);
    expect(urlsOf(['a', '', 'b'])).toEqual(['a', 'b']);
    expect(urlsOf(null)).toEqual([]);
    expect(fileNameOfUrl('https://cdn.example/u/1_20260301120000.pdf?v=2')).toBe('1_20260301120000.pdf');
    expect(fileNameOfUrl('/files/%E5%90%88%E5%90%8C.pdf')).toBe('合同.pdf');
  });
});
