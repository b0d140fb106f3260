import { useTranslation } from 'react-i18next';
import UploadField, { type UploadFieldProps } from './UploadField.tsx';
import { FILE_LIMIT, FILE_MAX_MB } from './rules.ts';

export interface FileUploadProps extends UploadFieldProps {
  /** Accepted extensions; the type is only checked when a list is given. */
  accept?: readonly string[];
  /** MB per file; default 500. */
  maxSizeMB?: number;
  /** How many files; default 10 ("at most N, remove first"). */
  limit?: number;
  /** One file, value a single url. */
  single?: boolean;
}

/** Files: a list of links, checked for size (500 MB), count (10) and, if given, type. */
export default function FileUpload({ accept, maxSizeMB = FILE_MAX_MB, limit = FILE_LIMIT, single, ...props }: FileUploadProps) {
  const { t } = useTranslation();
  return (
    <UploadField
      {...props}
      config={{
        rule: { accept, maxSizeMB, limit, kind: 'file' },
        target: 'file',
        single,
        look: 'list',
        defaultButtonText: t('kit.upload.uploadFile'),
      }}
    />
  );
}
