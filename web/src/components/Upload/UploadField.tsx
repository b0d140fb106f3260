import { useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Image, Typography, Upload, type UploadFile, type UploadProps } from 'antd';
import DisabledContext from 'antd/es/config-provider/DisabledContext';
import type { UploadKind } from '@p8/contract/upload';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import { acceptAttribute, checkFile, fileNameOfUrl, formatSize, urlsOf, type FileRule, type RuleViolation } from './rules.ts';
import { uploadFile, type UploadedFile, type UploadTarget } from './upload.ts';
import { useTellUploaded } from './discard.ts';
import './upload.css';

/** What an upload field holds: a list of urls, or one url for a single-file field. */
export type UploadValue = string | string[];

export interface UploadFieldProps {
  value?: UploadValue | null;
  onChange?: (value: UploadValue) => void;
  disabled?: boolean;
  /** `kind` sent with the file: which rule the server checks (default the route's: img / file). */
  kind?: UploadKind;
  /** Shows the accepted types and size under the field (default true). */
  showTip?: boolean;
  /** Trigger text; default "upload image" / "upload file". */
  buttonText?: ReactNode;
  /** Told of every finished upload (url, name, size). */
  onUploaded?: (file: UploadedFile) => void;
  'data-testid'?: string;
}

export interface UploadFieldConfig {
  rule: FileRule;
  target: UploadTarget;
  /** One url in the value (a new file replaces the old) instead of a list. */
  single?: boolean;
  look: 'picture' | 'list';
  defaultButtonText: string;
}

/** The message of a broken rule (wrong format, too big, too many). */
export function useViolationText() {
  const { t } = useTranslation();
  return (violation: RuleViolation) => {
    switch (violation.key) {
      case 'wrongFormat':
        return t('kit.upload.wrongFormat', { types: violation.types });
      case 'tooBig':
        return t('kit.upload.tooBig', { size: violation.size });
      default:
        return t(`kit.upload.${violation.key}`, { count: violation.count });
    }
  };
}

const uid = (url: string, index: number) => `url-${index}-${url}`;

/**
 * The uploader under every upload component: checks each picked file against the rule before it is
 * sent, uploads it (server or cloud, see upload.ts) with progress, and keeps the field's value as urls.
 * Images show as cards with a preview; other files as a list of links.
 */
export default function UploadField({ config, ...props }: UploadFieldProps & { config: UploadFieldConfig }) {
  const { value, onChange, kind, showTip = true, buttonText, onUploaded } = props;
  // A disabled form (a FormDialog in view mode) disables the field too.
  const formDisabled = useContext(DisabledContext);
  const disabled = props.disabled ?? formDisabled;
  const { rule, target, single, look } = config;
  const { t } = useTranslation();
  const violationText = useViolationText();
  const tellForm = useTellUploaded();
  const urls = useMemo(() => urlsOf(value), [value]);
  const [pending, setPending] = useState<UploadFile[]>([]);
  const [preview, setPreview] = useState<string | null>(null);
  const limit = single ? 1 : rule.limit;
  // Uploads finish one by one, each adding to what the previous one left (the prop may lag behind).
  const latest = useRef(urls);
  useEffect(() => {
    latest.current = urls;
  }, [urls]);

  const emit = (next: string[]) => {
    latest.current = next;
    onChange?.(single ? (next[next.length - 1] ?? '') : next);
  };

  const fileList: UploadFile[] = [
    ...urls.map((url, index) => ({ uid: uid(url, index), name: fileNameOfUrl(url), status: 'done' as const, url, thumbUrl: look === 'picture' ? url : undefined })),
    ...pending,
  ];

  const beforeUpload: UploadProps['beforeUpload'] = (file, batch) => {
    const position = Math.max(0, batch.indexOf(file));
    // A single field replaces its file: only the first of a pick counts, and no count limit.
    if (single && position > 0) return Upload.LIST_IGNORE;
    const violation = checkFile(file, single ? { ...rule, limit: undefined } : rule, urls.length + pending.length, position);
    if (violation) {
      feedback.message.warning({ content: violationText(violation), key: `upload:${violation.key}` });
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onProgress, onSuccess, onError }) => {
    uploadFile(file as File, { target, kind, onProgress: (p) => onProgress?.({ percent: p.percent }) })
      .then((uploaded) => onSuccess?.(uploaded))
      .catch((error: Error) => onError?.(error));
  };

  const onUploadChange: UploadProps['onChange'] = ({ file, fileList: next }) => {
    if (file.status === 'done') {
      const uploaded = file.response as UploadedFile;
      setPending((list) => list.filter((f) => f.uid !== file.uid));
      onUploaded?.(uploaded);
      tellForm?.(uploaded.url);
      emit(single ? [uploaded.url] : [...latest.current, uploaded.url]);
      return;
    }
    if (file.status === 'error') {
      // The upload call has shown why; the failed file leaves the list.
      setPending((list) => list.filter((f) => f.uid !== file.uid));
      return;
    }
    if (file.status === 'removed') return;
    setPending(next.filter((f) => f.status === 'uploading'));
  };

  const onRemove = (file: UploadFile) => {
    if (file.status === 'uploading') {
      setPending((list) => list.filter((f) => f.uid !== file.uid));
      return true;
    }
    const index = urls.findIndex((url, i) => uid(url, i) === file.uid);
    if (index >= 0) emit(latest.current.filter((_, i) => i !== index));
    return true;
  };

  const full = limit !== undefined && !single && urls.length + pending.length >= limit;
  const text = buttonText ?? config.defaultButtonText;
  const trigger =
    disabled || full ? null : look === 'picture' ? (
      <button type="button" className="p8-upload-card-trigger">
        <PlusOutlined />
        <div style={{ marginTop: 6 }}>{text}</div>
      </button>
    ) : (
      <Button icon={<UploadOutlined />}>{text}</Button>
    );

  const types = rule.accept?.length ? rule.accept.join(', ') : '';
  const tip = types
    ? t('kit.upload.tip', { types, size: formatSize(rule.maxSizeMB) })
    : t('kit.upload.sizeTip', { size: formatSize(rule.maxSizeMB) });

  if (disabled && fileList.length === 0) {
    return (
      <Typography.Text type="secondary" className="p8-upload" data-testid={props['data-testid']}>
        -
      </Typography.Text>
    );
  }

  return (
    <div className="p8-upload" data-testid={props['data-testid']}>
      <Upload
        listType={look === 'picture' ? 'picture-card' : 'text'}
        fileList={fileList}
        accept={acceptAttribute(rule.accept)}
        multiple={!single}
        disabled={disabled}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        onChange={onUploadChange}
        onRemove={disabled ? () => false : onRemove}
        onPreview={(file) => {
          if (look === 'picture' && file.url) setPreview(file.url);
          else if (file.url) window.open(file.url, '_blank', 'noopener');
        }}
        showUploadList={{ showRemoveIcon: !disabled, showPreviewIcon: true, showDownloadIcon: false }}
      >
        {trigger}
      </Upload>
      {showTip && !disabled && (
        <Typography.Text type="secondary" className="p8-upload-tip">
          {tip}
        </Typography.Text>
      )}
      {preview && (
        <Image
          style={{ display: 'none' }}
          src={preview}
          alt=""
          preview={{ open: true, src: preview, onOpenChange: (open) => !open && setPreview(null) }}
        />
      )}
    </div>
  );
}
