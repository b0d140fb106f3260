import FileUpload, { type FileUploadProps } from './FileUpload.tsx';
import { ATTACHMENT_TYPES } from './rules.ts';

/** Bill attachments: jpg, jpeg, png, xls, xlsx, pdf, doc, docx; otherwise the file rules. */
export default function AttachmentUpload(props: Omit<FileUploadProps, 'accept'>) {
  return <FileUpload kind="attachment" {...props} accept={ATTACHMENT_TYPES} />;
}
