import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Empty, Image, List, Modal, Progress, Space, Spin, Tag, Typography, Upload } from 'antd';
import { CameraOutlined, InboxOutlined, ReloadOutlined, ScanOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pictureSearchOpen, type PictureIndexStatus, type PictureMatch, type PictureSearchResult, type PictureTarget } from '@p8/contract/picture-search';
import type { BackgroundJobView } from '@p8/contract/system';
import { feedback } from '../../app/feedback.ts';
import { errorText, http } from '../../app/http.ts';
import { useAuth } from '../Auth/index.tsx';
import { useTenantConfig } from '../../hooks/useTenantConfig.ts';
import './picture-search.css';

/** The screens' codes: who searches, who re-indexes (the server checks the same). */
const WRITE: Record<PictureTarget, string> = { material: 'basic_material_update', product: 'mall_product_update' };

interface PictureSearchButtonProps {
  target: PictureTarget;
  /** A result chosen: the list opens it, the bill form's picker takes it. */
  onOpen: (match: PictureMatch) => void;
  /** The label of a result's action (default "Open"). */
  action?: 'open' | 'choose';
  /** Leaves disabled materials out (the picker). */
  enabledOnly?: boolean;
}

/**
 * "Search by picture" (docs/picture-search.md): shown only when the tenant's hasPictureSearchModule and
 * pictureSearchType open the search for `target`. The dialog takes a photo (the camera on a phone) or a
 * picture, answers the most similar records best first with their calibrated similarity — those at or above
 * the tenant's threshold marked as matches — and opens (or chooses) one. It also shows the index against the
 * records' pictures and, to whom may edit them, a re-index action with its progress. Test ids:
 * `picture-search-button`, `picture-search`, `picture-search-file`, `picture-search-result-<id>`,
 * `picture-search-open-<id>`, `picture-search-reindex`.
 */
export default function PictureSearchButton(props: PictureSearchButtonProps) {
  const { t } = useTranslation();
  const { config } = useTenantConfig();
  const [open, setOpen] = useState(false);
  if (!config || !pictureSearchOpen(config, props.target)) return null;
  return (
    <>
      <Button icon={<ScanOutlined />} onClick={() => setOpen(true)} data-testid="picture-search-button">
        {t('picture.button')}
      </Button>
      {open && <PictureSearchDialog {...props} onClose={() => setOpen(false)} />}
    </>
  );
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function PictureSearchDialog({ target, onOpen, action = 'open', enabledOnly, onClose }: PictureSearchButtonProps & { onClose: () => void }) {
  const { t } = useTranslation();
  const can = useAuth();
  const queryClient = useQueryClient();
  const [photo, setPhoto] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<PictureSearchResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const camera = useRef<HTMLInputElement>(null);
  const statusKey = ['picture', target, 'status'];
  const status = useQuery({
    queryKey: statusKey,
    queryFn: () => http.get<PictureIndexStatus>(`/admin/picture/${target}/status`, undefined, { noLoading: true }),
    // While an index job is under way, its progress is followed.
    refetchInterval: (query) => (query.state.data?.job ? 1000 : false),
  });
  const job = status.data?.job;
  const following = useRef<number | null>(null);

  // A re-index this dialog started: told when it ends.
  useEffect(() => {
    if (!job && following.current !== null) {
      const id = following.current;
      following.current = null;
      void (async () => {
        const done = await http.get<BackgroundJobView>(`/admin/system/jobs/${id}`, undefined, { noLoading: true, silent: true }).catch(() => null);
        const outcome = done?.result as { indexed?: number; removed?: number } | null | undefined;
        if (done?.status === 'succeeded') feedback.message.success(t('picture.reindexed', { indexed: outcome?.indexed ?? 0, removed: outcome?.removed ?? 0 }));
      })();
    }
  }, [job, t]);

  useEffect(() => () => void (photo && URL.revokeObjectURL(photo)), [photo]);

  const search = async (file: File) => {
    setPhoto(URL.createObjectURL(file));
    setResult(null);
    setFailure(null);
    setBusy(true);
    try {
      const form = new FormData();
      form.append('file', file);
      setResult(await http.post<PictureSearchResult>(`/admin/picture/${target}/search${enabledOnly ? '?enabledOnly=true' : ''}`, form, { noLoading: true, timeout: 60_000, silent: true }));
    } catch (error) {
      const text = errorText(error);
      setFailure(text);
      feedback.message.error(text);
    } finally {
      setBusy(false);
    }
  };

  const reindex = async () => {
    try {
      const { id } = await http.post<{ id: number }>(`/admin/picture/${target}/reindex`, undefined, { noLoading: true });
      following.current = id;
      await pause(300);
      await queryClient.invalidateQueries({ queryKey: statusKey });
    } catch {
      /* shown by the HTTP client */
    }
  };

  const percent = (value: number) => Math.round(value * 100);
  const choose = (match: PictureMatch) => {
    onOpen(match);
    onClose();
  };

  return (
    <Modal
      open
      title={t(target === 'product' ? 'picture.titleProduct' : 'picture.title')}
      width={880}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      modalRender={(node) => <div data-testid="picture-search">{node}</div>}
    >
      <div className="p8-picture-index">
        <Typography.Text type="secondary" data-testid="picture-search-index">
          {status.data ? t('picture.indexState', { indexed: status.data.indexed, pictures: status.data.pictures, required: status.data.required }) : '\u00a0'}
        </Typography.Text>
        <Space>
          {job && (
            <span className="p8-picture-job" data-testid="picture-search-job">
              {job.status === 'running' && job.total ? (
                <>
                  <Progress percent={Math.round((job.done / Math.max(1, job.total)) * 100)} size="small" style={{ width: 120 }} />
                  {t('picture.indexing', { done: job.done, total: job.total })}
                </>
              ) : (
                t('picture.indexQueued')
              )}
            </span>
          )}
          {can(WRITE[target]) && (
            <Button size="small" icon={<ReloadOutlined />} loading={!!job} onClick={() => void reindex()} data-testid="picture-search-reindex">
              {t('picture.reindex')}
            </Button>
          )}
        </Space>
      </div>
      <div className="p8-picture-body">
        <div className="p8-picture-input">
          {photo ? (
            <div className="p8-picture-photo">
              <Typography.Text type="secondary">{t('picture.photo')}</Typography.Text>
              <Image src={photo} alt={t('picture.photo')} width={220} height={220} style={{ objectFit: 'contain' }} />
            </div>
          ) : null}
          <Upload.Dragger
            accept="image/*"
            showUploadList={false}
            disabled={busy}
            beforeUpload={(file) => {
              void search(file);
              return false;
            }}
            data-testid="picture-search-file"
            className={photo ? 'p8-picture-again' : undefined}
          >
            {photo ? (
              <Typography.Text>{t('picture.again')}</Typography.Text>
            ) : (
              <>
                <p className="ant-upload-drag-icon">
                  <InboxOutlined />
                </p>
                <p className="ant-upload-text">{t('picture.drop')}</p>
                <p className="ant-upload-hint">{t('picture.dropHint')}</p>
              </>
            )}
          </Upload.Dragger>
          <input
            ref={camera}
            type="file"
            accept="image/*"
            capture="environment"
            hidden
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void search(file);
              e.target.value = '';
            }}
          />
          <Button block icon={<CameraOutlined />} disabled={busy} onClick={() => camera.current?.click()} style={{ marginTop: 8 }}>
            {t('picture.takePhoto')}
          </Button>
        </div>
        <div className="p8-picture-results">
          {busy ? (
            <Spin tip={t('picture.searching')}>
              <div style={{ height: 240 }} />
            </Spin>
          ) : failure ? (
            <Alert type="warning" showIcon message={failure} data-testid="picture-search-failure" />
          ) : result ? (
            <>
              <Typography.Text type="secondary">{t('picture.results', { count: result.matches.length, indexed: result.indexed })}</Typography.Text>
              <List<PictureMatch>
                dataSource={result.matches}
                locale={{ emptyText: <Empty description={t('picture.noResults')} /> }}
                className="p8-picture-list"
                renderItem={(m) => (
                  <List.Item
                    key={m.id}
                    data-testid={`picture-search-result-${m.id}`}
                    className={m.match ? 'p8-picture-hit' : undefined}
                    actions={[
                      <Button key="open" type={m.match ? 'primary' : 'default'} size="small" onClick={() => choose(m)} data-testid={`picture-search-open-${m.id}`}>
                        {t(action === 'choose' ? 'picture.choose' : 'picture.open')}
                      </Button>,
                    ]}
                  >
                    <List.Item.Meta
                      avatar={<Image src={m.image} width={56} height={56} style={{ objectFit: 'cover', borderRadius: 4 }} alt={m.name} />}
                      title={
                        <Space size={6} wrap>
                          <span>{m.name}</span>
                          {m.code && <Typography.Text type="secondary">{m.code}</Typography.Text>}
                          {m.match ? <Tag color="green">{t('picture.match')}</Tag> : <Tag>{t('picture.belowThreshold', { threshold: percent(result.threshold) + '%' })}</Tag>}
                        </Space>
                      }
                      description={
                        <div className="p8-picture-score">
                          {m.specification && <span>{m.specification}</span>}
                          <span>{t('picture.similarity')}</span>
                          <Progress percent={percent(m.similarity)} format={(value) => `${value ?? 0}%`} size="small" status={m.match ? 'success' : 'normal'} style={{ width: 160, margin: 0 }} />
                        </div>
                      }
                    />
                  </List.Item>
                )}
              />
            </>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('picture.dropHint')} />
          )}
        </div>
      </div>
    </Modal>
  );
}
