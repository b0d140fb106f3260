import { z } from 'zod';
import { storableText } from './text.ts';

/**
 * Stored rich text (HTML written in the rich-text editor: message bodies, product details, agreements).
 *
 * How to use: declare the field in its contract schema as `richText(max)` instead of `storableText()`:
 *
 *     content: richText(20000).default(''),
 *
 * and nothing else. When the server validates a request, the field's HTML goes through the server's
 * allow-list sanitiser (server/src/core/rich-text.ts: formatting, tables, links and images stay; scripts,
 * event handlers, `javascript:` URLs, style expressions, SVG… go), so the service stores only the
 * sanitised HTML and no screen depends on its editor to neutralise what it shows.
 *
 * The sanitiser lives in the server (the web never parses these schemas, and the sanitiser's parser has
 * no place in the browser bundle) and is installed by `buildApp`. Until it is installed the field is
 * refused (`RichTextUnchecked`), so a process that forgot it can never store unchecked HTML.
 */
let sanitiser: ((html: string) => string) | undefined;

/** Installs the server's sanitiser (server/src/core/rich-text.ts does it; nothing else should). */
export function installRichTextSanitiser(sanitise: (html: string) => string): void {
  sanitiser = sanitise;
}

/** Rich text of at most `max` characters as sent, stored sanitised. */
export function richText(max: number) {
  return storableText()
    .max(max)
    .transform((html, ctx) => {
      if (!sanitiser) {
        ctx.addIssue({ code: 'custom', message: 'RichTextUnchecked' });
        return z.NEVER;
      }
      return sanitiser(html);
    });
}
