import { z } from 'zod';
import { storableText } from './text.ts';

/**
 * Upload rules (formats, sizes and counts), shared by the web uploaders (first check) and the server (the check
 * that counts: the server sniffs the content, the web only looks at the name).
 */
export const UploadKind = ['img', 'file', 'video', 'attachment', 'logo', 'excel'] as const;
export type UploadKind = (typeof UploadKind)[number];
export const uploadKindSchema = z.enum(UploadKind);

export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'apng', 'bmp', 'pjpeg', 'webp', 'avif'] as const;
export const LOGO_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif'] as const;
export const VIDEO_EXTENSIONS = ['mp4'] as const;
export const ATTACHMENT_EXTENSIONS = ['jpg', 'jpeg', 'png', 'xls', 'xlsx', 'pdf', 'doc', 'docx'] as const;
export const EXCEL_EXTENSIONS = ['xls', 'xlsx'] as const;
/**
 * What the generic file upload accepts: the attachment types — images, spreadsheets, PDF, Word documents —
 * and mp4 videos. A tenant may add extensions (system settings, `uploadExtensions`), never a denied one.
 */
export const FILE_EXTENSIONS = [...new Set([...IMAGE_EXTENSIONS, ...ATTACHMENT_EXTENSIONS, ...EXCEL_EXTENSIONS, ...VIDEO_EXTENSIONS])] as const;
/**
 * Never accepted, whatever a tenant sets: what a browser renders as a page or runs as script (HTML, SVG,
 * XML and style sheets, scripts, Flash, web manifests) and programs or installers for any system.
 */
export const DENIED_EXTENSIONS: readonly string[] = [
  ...['html', 'htm', 'xhtml', 'xht', 'shtml', 'shtm', 'mht', 'mhtml', 'svg', 'svgz', 'xml', 'xsl', 'xslt', 'xsd', 'rss', 'atom', 'css', 'swf', 'hta', 'htc'],
  ...['js', 'mjs', 'cjs', 'jsx', 'ts', 'tsx', 'wasm', 'webmanifest', 'manifest', 'appcache', 'vbs', 'vbe', 'jse', 'wsf', 'wsh', 'ps1', 'psm1', 'psd1'],
  ...['exe', 'dll', 'com', 'bat', 'cmd', 'msi', 'msp', 'msix', 'appx', 'scr', 'pif', 'cpl', 'sys', 'drv', 'ocx', 'lnk', 'reg', 'inf', 'gadget'],
  ...['sh', 'bash', 'zsh', 'csh', 'ksh', 'php', 'phtml', 'php3', 'php4', 'php5', 'phar', 'asp', 'aspx', 'ashx', 'asmx', 'jsp', 'jspx', 'cgi', 'pl', 'py', 'pyc', 'rb', 'jar', 'class'],
  ...['apk', 'aab', 'ipa', 'app', 'dmg', 'pkg', 'deb', 'rpm', 'run', 'bin', 'elf', 'so', 'dylib', 'command', 'workflow', 'action', 'desktop'],
];
const UPLOAD_EXTENSION_PATTERN = /^[a-z0-9]{1,10}$/;
/** An extension a tenant adds to the generic file upload: lower-case letters and digits, not denied. */
export const uploadExtensionSchema = storableText()
  .trim()
  .toLowerCase()
  .transform((ext) => ext.replace(/^\./, ''))
  .pipe(
    storableText()
      .regex(UPLOAD_EXTENSION_PATTERN, { message: 'UploadExtensionFormatError' })
      .refine((ext) => !DENIED_EXTENSIONS.includes(ext), { message: 'UploadExtensionDenied' }),
  );

/** Which size limit of the configuration applies (config `upload.imageMaxMb` / `fileMaxMb` / `excelMaxMb`). */
export type UploadLimit = 'image' | 'file' | 'excel';

export interface UploadRule {
  /** Allowed extensions (lower case). */
  extensions: readonly string[];
  /** Whether the tenant's added extensions (system settings, `uploadExtensions`) count too. */
  widenable?: boolean;
  limit: UploadLimit;
}

export const UPLOAD_RULES: Record<UploadKind, UploadRule> = {
  img: { extensions: IMAGE_EXTENSIONS, limit: 'image' },
  logo: { extensions: LOGO_EXTENSIONS, limit: 'image' },
  video: { extensions: VIDEO_EXTENSIONS, limit: 'file' },
  attachment: { extensions: ATTACHMENT_EXTENSIONS, limit: 'file', widenable: true },
  excel: { extensions: EXCEL_EXTENSIONS, limit: 'excel' },
  file: { extensions: FILE_EXTENSIONS, limit: 'file', widenable: true },
};

/** Kinds each upload route accepts; the first is the default when the request names none. */
export const UPLOAD_ROUTE_KINDS = {
  img: ['img', 'logo'],
  file: ['file', 'img', 'logo', 'video', 'attachment', 'excel'],
} as const satisfies Record<string, readonly UploadKind[]>;

/** Count limits of the uploaders: at most 10 files, 5 images per list. */
export const UPLOAD_MAX_FILES = 10;
export const UPLOAD_MAX_IMAGES = 5;

/** POST /admin/upload/img and /admin/upload/file. */
/**
 * POST /admin/upload/discard: files a form uploaded and then threw away (closed without saving), by the
 * urls the uploads answered. The server removes only the caller's own recent ones that no record names.
 */
export const uploadDiscardSchema = z.object({ urls: z.array(storableText().max(300)).max(UPLOAD_MAX_FILES * 5) });

export interface UploadResult {
  /** Where the file is served: `/api/base/file/<tenantId>/<yyyy-mm>/<uuid>.<ext>`. */
  url: string;
  /** The client's file name, for display. */
  name: string;
  /** Bytes. */
  size: number;
}

/** GET /base/api/qiniuyun/token: a cloud upload token (the client refreshes it 10 s before `expired`). */
export interface CloudUploadToken {
  token: string;
  /** Domain the uploaded files are served from. */
  domain: string;
  /** Seconds the token is valid for. */
  expired: number;
  /** Where the client posts the file (empty: the provider's default endpoint). */
  uploadUrl: string;
}

/**
 * One row an import refused: its spreadsheet row number (the header is row 1), what it held, the catalogue
 * key, and — when the refusal concerns one cell — that cell's column (its template title in both languages)
 * and text, so that the notice can say where to look ("Row 3 · Safety stock “abc”: not a number").
 */
export interface ImportError {
  rowNum: number;
  data: Record<string, unknown>;
  /** Catalogue key, translated by the client as `error.<errorMsg>`. */
  errorMsg: string;
  /** The column of the refused cell, by its template title. */
  column?: { zh: string; en: string };
  /** The refused cell's text (cut to 100 characters). */
  value?: string;
}

/** POST {path}/import → the batch import result. */
export interface ImportResult {
  total: number;
  successCount: number;
  errorCount: number;
  errList: ImportError[];
}

/** uploading → reading the file → checking the rows → writing them (one short transaction) → done / failed. */
export type ImportPhase = 'uploading' | 'reading' | 'checking' | 'writing' | 'done' | 'failed';

/** How far an import is (core/import-job.ts turns it into its background job's progress). */
export interface ImportProgress {
  phase: ImportPhase;
  rowsRead: number;
  rowsChecked: number;
  rowsWritten: number;
  /** Data rows of the file, once read. */
  total?: number;
}
