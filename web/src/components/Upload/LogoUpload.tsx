import { useTranslation } from 'react-i18next';
import UploadField, { type UploadFieldProps } from './UploadField.tsx';
import { LOGO_MAX_MB, LOGO_TYPES } from './rules.ts';

/** A logo: one png, jpg or gif image up to 5 MB; the value is its url. */
export default function LogoUpload(props: UploadFieldProps) {
  const { t } = useTranslation();
  return (
    <UploadField
      kind="logo"
      {...props}
      config={{
        rule: { accept: LOGO_TYPES, maxSizeMB: LOGO_MAX_MB, limit: 1, kind: 'image' },
        target: 'img',
        single: true,
        look: 'picture',
        defaultButtonText: t('kit.upload.uploadImage'),
      }}
    />
  );
}
