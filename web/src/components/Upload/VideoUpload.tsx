import { useTranslation } from 'react-i18next';
import FileUpload, { type FileUploadProps } from './FileUpload.tsx';
import { VIDEO_TYPES } from './rules.ts';

/** Videos: mp4 only; otherwise the file rules (500 MB, 10 files). */
export default function VideoUpload(props: Omit<FileUploadProps, 'accept'>) {
  const { t } = useTranslation();
  return <FileUpload kind="video" buttonText={t('kit.upload.uploadVideo')} {...props} accept={VIDEO_TYPES} />;
}
