import sanitizeHtml from 'sanitize-html';

/**
 * The server's one HTML sanitiser for stored rich text. A contract field declared `richText(max)`
 * (packages/contract/src/rich-text.ts) passes through it when a request is validated, so services
 * store only what it lets through; a service writing rich text from elsewhere (demo data, a copy)
 * calls `sanitizeRichText` itself.
 *
 * It is an allow-list (sanitize-html): what the editor produces — paragraphs, headings, emphasis,
 * lists, quotes, code, tables, links, images and uploaded videos — plus alignment and colours, and
 * nothing else. Everything not listed goes: <script>/<style>/<iframe>/<object>/<svg>/<math> with their
 * content, every `on…` handler, `style` values other than plain colours, sizes and alignment
 * (no `expression()`, no `url()`), and every URL that is not http(s), mailto/tel (links only), or a
 * path on this server (`/api/base/file/…` uploads) — no `javascript:`, `data:` or `vbscript:`.
 */

/** Colours as the editor writes them: #rgb / #rrggbb, rgb()/rgba() with numbers, or a colour name. */
const COLOUR = /^(#[0-9a-f]{3,8}|rgba?\(\s*[\d.%\s,]+\)|[a-z]{3,20})$/i;
const LENGTH = /^(0|\d{1,4}(\.\d{1,3})?(px|em|rem|%|pt))$/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'div', 'span', 'blockquote', 'pre', 'code',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'ins', 'sub', 'sup', 'mark', 'small',
    'ul', 'ol', 'li', 'dl', 'dt', 'dd',
    'table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
    'a', 'img', 'video', 'figure', 'figcaption',
  ],
  allowedAttributes: {
    '*': ['style', 'class'],
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    video: ['src', 'controls', 'preload', 'width', 'height', 'poster'],
    ol: ['start', 'type'],
    td: ['colspan', 'rowspan', 'align', 'valign'],
    th: ['colspan', 'rowspan', 'align', 'valign', 'scope'],
    col: ['span', 'width'],
  },
  allowedClasses: { '*': [/^[a-z][a-z0-9_-]{0,40}$/i] },
  allowedStyles: {
    '*': {
      'text-align': [/^(left|right|center|justify|start|end)$/i],
      color: [COLOUR],
      'background-color': [COLOUR],
      'font-size': [LENGTH],
      'font-weight': [/^(normal|bold|bolder|lighter|[1-9]00)$/i],
      'font-style': [/^(normal|italic)$/i],
      'text-decoration': [/^(none|underline|line-through|overline)$/i],
      width: [LENGTH, /^auto$/i],
      height: [LENGTH, /^auto$/i],
      'max-width': [LENGTH],
      'text-indent': [LENGTH],
      'vertical-align': [/^(top|middle|bottom|baseline)$/i],
    },
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'], video: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'poster', 'cite'],
  // `//evil.example/x` would leave the page's own origin without a scheme to check.
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // A link that opens a new window must not hand it our window (`window.opener`).
  transformTags: {
    a: (tagName, attribs) => {
      if (attribs.target) return { tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' } };
      return { tagName, attribs };
    },
  },
};

/** The HTML with everything outside the allow-list removed. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
