import { useTranslation } from 'react-i18next';
import UploadField, { type UploadFieldProps } from './UploadField.tsx';
import { IMAGE_LIMIT, IMAGE_MAX_MB, IMAGE_TYPES } from './rules.ts';

export interface ImageUploadProps extends UploadFieldProps {
  /** Accepted types; default png, jpg, jpeg, gif, apng, bmp, pjpeg, webp, avif. */
  accept?: readonly string[];
  /** MB per image; default 5. */
  maxSizeMB?: number;
  /** How many images; default 5 ("at most N images"). */
  limit?: number;
  /** One image, value a single url. */
  single?: boolean;
}

/** Images: cards with preview, checked for type, size (5 MB) and count (5) before upload. */
export default function ImageUpload({ accept = IMAGE_TYPES, maxSizeMB = IMAGE_MAX_MB, limit = IMAGE_LIMIT, single, ...props }: ImageUploadProps) {
  const { t } = useTranslation();
  return (
    <UploadField
      {...props}
      config={{
        rule: { accept, maxSizeMB, limit, kind: 'image' },
        target: 'img',
        single,
        look: 'picture',
        defaultButtonText: t('kit.upload.uploadImage'),
      }}
    />
  );
}
