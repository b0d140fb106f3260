/**
 * An empty editor is the empty string, not `<p></p>`. Content counts as empty when it has no
 * text (after tags and non-breaking spaces are removed) and no image or video. Pure; tested.
 */
export function isEmptyHtml(html: string | null | undefined): boolean {
  if (!html) return true;
  if (/<(img|video|iframe|hr)\b/i.test(html)) return false;
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|\u00a0/g, ' ')
    .trim();
  return text.length === 0;
}

/** The value the form receives: '' for empty content, the HTML otherwise. */
export function editorValue(html: string | null | undefined): string {
  return isEmptyHtml(html) ? '' : (html ?? '');
}
