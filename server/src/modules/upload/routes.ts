import { z } from 'zod';
import { storableText } from '@p8/contract/text';
import { uploadDiscardSchema } from '@p8/contract/upload';
import { discardOwnUploads } from '../../core/upload-sweep.ts';
import { cloudUploadToken } from '../../core/uploads.ts';
import { publicRoute, untransactedRoute, type ServerModule } from '../../core/route.ts';
import { noSuchFile, receiveUpload, sendTemplate, sendUploadedFile } from './service.ts';

const kindQuery = z.object({ kind: storableText().optional() });
const tags = ['upload'];
const multipart = {
  consumes: ['multipart/form-data'],
  query: kindQuery,
  description: 'Multipart: field `file` (one file), optional field `kind` (img | file | video | attachment | logo | excel). Checked by content sniffing.',
};

/** Uploads to our own server, the files they become, the cloud upload token and the import templates. */
export const uploadModule: ServerModule = {
  name: 'upload',
  routes: [
    // Received before any transaction is opened (receiveUpload opens its own short one).
    untransactedRoute({
      method: 'POST', url: '/api/admin/upload/img', tags, summary: 'Upload an image (png, jpg, jpeg, gif, apng, bmp, pjpeg, webp, avif; logo: png, jpg, gif)', ...multipart,
      handler: (caller, { query }, http) => receiveUpload(caller, http, 'img', query.kind),
    }),
    untransactedRoute({
      method: 'POST', url: '/api/admin/upload/file', tags, summary: 'Upload a file (≤ 500 MB): images, xls, xlsx, pdf, doc, docx, mp4 and the extensions the tenant added', ...multipart,
      handler: (caller, { query }, http) => receiveUpload(caller, http, 'file', query.kind),
    }),
    // A form closed without saving: the files it uploaded go now instead of at the next sweep (the name is
    // the url's last segment; only the caller's own recent uploads no record names are removed).
    untransactedRoute({
      method: 'POST', url: '/api/admin/upload/discard', tags, summary: "Remove the caller's own recent uploads that no record names (a form closed without saving)", body: uploadDiscardSchema,
      handler: async (caller, { body }) => ({
        removed: await discardOwnUploads(caller.database, caller.config, { tenantId: caller.tenantId, adminId: caller.account.adminId }, body.urls.map((url) => url.split('/').pop() ?? ''), caller.config.upload.orphanHours),
      }),
    }),
    // The segments are plain strings here (not storableText) because anything else, a NUL included, is
    // simply not found: they must equal what the server generated.
    publicRoute({
      method: 'GET', url: '/api/base/file/:tenantId/:month/:name', tags, summary: 'A file uploaded to this server',
      params: z.object({ tenantId: z.string(), month: z.string(), name: z.string() }),
      handler: (deps, { params }, http) => sendUploadedFile(deps, params, http),
    }),
    publicRoute({ method: 'GET', url: '/api/base/file/*', tags, summary: 'Not found: any other path under /api/base/file', hide: true, handler: (_deps, _input, http) => noSuchFile(http) }),
    untransactedRoute({
      method: 'GET', url: '/api/base/api/qiniuyun/token', openRead: 'upload', tags, summary: 'Cloud (Qiniu) upload token: token, domain, expired (s)',
      handler: async (caller) => cloudUploadToken(caller.config, caller.tenantId),
    }),
    // Template download links of the public system config (`templates`), fetched by a plain link.
    publicRoute({
      method: 'GET', url: '/api/base/template/:file', tags, summary: 'An Excel import template (<key>.xlsx)', params: z.object({ file: z.string() }),
      handler: (deps, { params }, http) => sendTemplate(deps.registries.importTemplates, params.file, http),
    }),
  ],
};
