import { useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Checkbox, Col, Input, InputNumber, Modal, Popconfirm, Row, Segmented, Select, Space, Switch, Table, Typography } from 'antd';
import { DeleteOutlined, FilePdfOutlined, PrinterOutlined, SaveOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LABEL_FIELDS, LABEL_KIND_LABELS, LABEL_PRINT_SCREEN, LabelCode, labelRecords, labelRefusal, labelSheets, MAX_LABELS, type LabelKind, type LabelLayout, type LabelTemplateChoice } from '@p8/contract/print/label';
import { FontFamily, PAPER_SIZES, presetPaper, type PaperKind } from '@p8/contract/print/template';
import { errorText, http, isHttpError, saveBlob } from '../../app/http.ts';
import { feedback } from '../../app/feedback.ts';
import { Auth } from '../Auth/index.tsx';
import LabelSheets, { labelPageRule } from '../PrintPage/labels.tsx';
import './label-print.css';
import { PrintRoot, usePrintJob } from '../PrintPage/print-job.tsx';

const PATH = '/admin/system/printTemplate/label';

/** Runs a click's work; a refusal was shown by the http layer, anything else is shown here (no unhandled rejection). */
const run = (work: () => Promise<unknown>) =>
  void work().catch((error: unknown) => {
    if (!isHttpError(error)) feedback.message.error(errorText(error));
  });
/** The paper kinds a label sheet takes (receipt rolls are not sheets). */
const SHEET_PAPERS: PaperKind[] = ['A4', 'A5', 'Custom'];

/**
 * Labels of a list's selection (materials, storage locations, a material's boxes), N-up on sheets: the kind's
 * templates (the tenant's, the default first, and its starter), the sheet and what a label shows adjusted here
 * and kept as a template (the print templates' buttons), how many labels per record (copies, or boxes and
 * the quantity in each), the sheets exactly as they print, then print or download a PDF.
 */
export default function LabelPrint({
  kinds,
  records,
  onClose,
  printPath,
}: {
  kinds: LabelKind[];
  /** With kind `box`, records carrying `boxNo` and `perBox` are boxes already packed (an inspection's): one label each. */
  records: ReadonlyArray<{ id: number; code: string; name: string; boxNo?: string; perBox?: string }>;
  onClose: () => void;
  /** Where the print is recorded, when not the kind's list (an inspection's boxes: `…/box/label/print`). */
  printPath?: string;
}) {
  const packed = records.some((r) => r.boxNo !== undefined);
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'label' });
  const { t: root } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<LabelKind>(kinds[0]);
  const templates = useQuery({ queryKey: ['label-templates', kind, lang], queryFn: () => http.get<LabelTemplateChoice[]>(PATH, { kind }, { noLoading: true }), staleTime: 0 });
  const [chosen, setChosen] = useState<number | null | undefined>(undefined);
  const template = templates.data?.find((c) => c.id === chosen) ?? templates.data?.find((c) => c.isDefault) ?? templates.data?.[0];
  // The layout being adjusted: the chosen template's until changed here.
  const templateKey = `${kind}:${template?.id ?? 'starter'}`;
  const [edited, setEdited] = useState<{ key: string; layout: LabelLayout } | null>(null);
  const layout = edited?.key === templateKey ? edited.layout : template?.layout;
  const setLayout = (next: LabelLayout) => setEdited({ key: templateKey, layout: next });
  const [copies, setCopies] = useState<Record<number, number>>({});
  const [perBox, setPerBox] = useState<Record<number, string>>({});
  const [saveAs, setSaveAs] = useState<string | null>(null);

  const labels = useMemo(
    () =>
      labelRecords(
        kind,
        records as unknown as ReadonlyArray<Record<string, unknown>>,
        records.map((r) => copies[r.id] ?? 1),
        records.map((r) => perBox[r.id] ?? ''),
      ),
    [kind, records, copies, perBox],
  );
  const refusal = layout ? labelRefusal(kind, layout) : undefined;
  const sheets = layout && !refusal ? labelSheets(layout, labels.length).length : 0;
  const wanted = records.reduce((s, r) => s + (copies[r.id] ?? 1), 0);
  const job = usePrintJob();
  const sheetsRef = useRef<HTMLDivElement>(null);
  const [making, setMaking] = useState(false);

  const set = (patch: Partial<LabelLayout>) => layout && setLayout({ ...layout, ...patch });
  const setPaper = (patch: Partial<LabelLayout['paper']>) => layout && setLayout({ ...layout, paper: { ...layout.paper, ...patch } });
  const num = (value: number, onChange: (v: number) => void, testId: string, min = 0, max = 600, step = 0.5) => (
    <InputNumber size="small" value={value} min={min} max={max} step={step} style={{ width: '100%' }} onChange={(v) => v !== null && onChange(Number(v))} data-testid={testId} />
  );
  const row = (label: string, control: ReactNode) => (
    <Col span={12}>
      <div className="p8-label-setting p8-label-grid">
        <span>{label}</span>
        <div>{control}</div>
      </div>
    </Col>
  );

  const reload = () => void queryClient.invalidateQueries({ queryKey: ['label-templates', kind] });
  const save = async (name?: string) => {
    if (!layout || !template) return;
    if (name !== undefined || template.id === null) {
      const created = await http.post<LabelTemplateChoice>(PATH, { kind, name: name ?? template.name, isDefault: false, layout });
      setChosen(created.id);
    } else await http.put(PATH, { id: template.id, kind, name: template.name, isDefault: template.isDefault, layout });
    feedback.message.success(t('saved'));
    setSaveAs(null);
    reload();
  };
  const remove = async () => {
    if (!template?.id) return;
    await http.delete(PATH, { ids: [template.id] });
    feedback.message.success(t('removed'));
    setChosen(undefined);
    reload();
  };
  /** Records the print on the server (the list's `…_printLabel` button; audited), before the browser prints or the PDF is saved. */
  const record = (output: 'paper' | 'pdf') =>
    http.post(printPath ?? `/admin/${LABEL_PRINT_SCREEN[kind].replace('_', '/')}/label/print`, { kind, templateId: template?.id ?? null, ids: records.map((r) => r.id), labels: labels.length, output }, { noLoading: true });
  const print = async () => {
    await record('paper');
    job.start();
  };
  const savePdf = async () => {
    if (!sheetsRef.current) return;
    setMaking(true);
    try {
      const { pagesToPdf } = await import('../PrintPage/pdf-export.ts');
      const title = LABEL_KIND_LABELS[kind][lang];
      const bytes = await pagesToPdf([...sheetsRef.current.querySelectorAll<HTMLElement>('.p8-print-page')], title);
      await record('pdf');
      saveBlob(new Blob([bytes as BlobPart], { type: 'application/pdf' }), `${title}.pdf`);
    } finally {
      setMaking(false);
    }
  };

  const fieldKeys = Object.keys(LABEL_FIELDS[kind]);
  const shownField = (key: string) => layout?.fields.find((f) => f.key === key);
  const toggleField = (key: string, on: boolean) => {
    if (!layout) return;
    const fields = on ? fieldKeys.filter((k) => k === key || shownField(k)).map((k) => shownField(k) ?? { key: k, label: false, fontSize: 8, bold: false }) : layout.fields.filter((f) => f.key !== key);
    set({ fields });
  };
  const setField = (key: string, patch: Partial<LabelLayout['fields'][number]>) => layout && set({ fields: layout.fields.map((f) => (f.key === key ? { ...f, ...patch } : f)) });

  return (
    <Modal
      open
      width="min(1440px, 96vw)"
      onCancel={onClose}
      title={t('title', { count: records.length })}
      data-testid="label-print"
      footer={
        <Space>
          {layout && !refusal && (
            <Typography.Text type="secondary" data-testid="label-print-summary">
              {t('summary', { labels: labels.length, sheets, perSheet: layout.columns * layout.rows })}
            </Typography.Text>
          )}
          {refusal && <Typography.Text type="danger" data-testid="label-print-refusal">{root(`error.${refusal}`)}</Typography.Text>}
          {wanted > MAX_LABELS && <Typography.Text type="warning">{t('tooMany', { max: MAX_LABELS })}</Typography.Text>}
          <Button icon={<FilePdfOutlined />} disabled={!layout || !!refusal || !labels.length} loading={making} onClick={() => run(savePdf)} data-testid="label-print-pdf">
            {t('pdf')}
          </Button>
          <Button type="primary" icon={<PrinterOutlined />} disabled={!layout || !!refusal || !labels.length} onClick={() => run(print)} data-testid="label-print-go">
            {t('go')}
          </Button>
        </Space>
      }
    >
      <Row gutter={16}>
        <Col span={9} className="p8-label-settings">
          <Space wrap style={{ marginBottom: 8 }}>
            {kinds.length > 1 && (
              <Segmented
                value={kind}
                onChange={(k) => {
                  setKind(k as LabelKind);
                  setChosen(undefined);
                }}
                options={kinds.map((k) => ({ value: k, label: LABEL_KIND_LABELS[k][lang] }))}
                data-testid="label-print-kind"
              />
            )}
            <Select
              style={{ minWidth: 220 }}
              value={template?.id ?? null}
              loading={templates.isFetching}
              onChange={(id: number | null) => setChosen(id)}
              options={(templates.data ?? []).map((c) => ({ value: c.id, label: c.isDefault && c.id !== null ? root('bill.printDefault', { name: c.name }) : c.name }))}
              data-testid="label-print-template"
            />
          </Space>
          <Space wrap style={{ marginBottom: 8 }}>
            <Auth code={template?.id ? 'system_printTemplate_update' : 'system_printTemplate_add'}>
              <Button size="small" icon={<SaveOutlined />} disabled={!!refusal} onClick={() => run(() => save())} data-testid="label-print-save">
                {t('save')}
              </Button>
            </Auth>
            <Auth code="system_printTemplate_add">
              {saveAs === null ? (
                <Button size="small" onClick={() => setSaveAs('')} disabled={!!refusal} data-testid="label-print-save-as">
                  {t('saveAs')}
                </Button>
              ) : (
                <Space.Compact size="small">
                  <Input size="small" autoFocus placeholder={t('saveAsName')} value={saveAs} onChange={(e) => setSaveAs(e.target.value)} style={{ width: 160 }} data-testid="label-print-save-as-name" />
                  <Button size="small" type="primary" disabled={!saveAs.trim()} onClick={() => run(() => save(saveAs.trim()))} data-testid="label-print-save-as-ok">
                    {root('common.confirm')}
                  </Button>
                </Space.Compact>
              )}
            </Auth>
            {template?.id ? (
              <Auth code="system_printTemplate_delete">
                <Popconfirm title={t('remove')} onConfirm={() => run(remove)}>
                  <Button size="small" danger icon={<DeleteOutlined />} data-testid="label-print-remove">
                    {t('remove')}
                  </Button>
                </Popconfirm>
              </Auth>
            ) : null}
          </Space>
          {layout && (
            <>
              <Typography.Title level={5}>{t('sheet')}</Typography.Title>
              <Row gutter={[12, 6]}>
                {row(
                  t('paper'),
                  <Select
                    size="small"
                    style={{ width: '100%' }}
                    value={layout.paper.kind}
                    onChange={(k: PaperKind) => setPaper(k === 'Custom' ? { kind: k } : { ...presetPaper(k as Exclude<PaperKind, 'Custom'>), margin: layout.paper.margin })}
                    options={SHEET_PAPERS.map((k) => ({ value: k, label: k === 'Custom' ? root('system-office.printTemplate.papers.Custom') : `${k} ${PAPER_SIZES[k as 'A4'].width} × ${PAPER_SIZES[k as 'A4'].height}` }))}
                    data-testid="label-paper"
                  />,
                )}
                {layout.paper.kind === 'Custom' ? row(t('width'), num(layout.paper.width, (width) => setPaper({ width }), 'label-paper-width', 30)) : <Col span={12} />}
                {layout.paper.kind === 'Custom' && row(t('height'), num(layout.paper.height, (height) => setPaper({ height }), 'label-paper-height', 30, 2000))}
                {layout.paper.kind === 'Custom' && <Col span={12} />}
                {row(t('columns'), num(layout.columns, (columns) => set({ columns }), 'label-columns', 1, 20, 1))}
                {row(t('rows'), num(layout.rows, (rows) => set({ rows }), 'label-rows', 1, 40, 1))}
                {row(t('labelWidth'), num(layout.labelWidth, (labelWidth) => set({ labelWidth }), 'label-width', 10))}
                {row(t('labelHeight'), num(layout.labelHeight, (labelHeight) => set({ labelHeight }), 'label-height', 5))}
                {row(t('gapX'), num(layout.gapX, (gapX) => set({ gapX }), 'label-gap-x', 0, 50))}
                {row(t('gapY'), num(layout.gapY, (gapY) => set({ gapY }), 'label-gap-y', 0, 50))}
                {row(t('marginTop'), num(layout.paper.margin.top, (top) => setPaper({ margin: { ...layout.paper.margin, top, bottom: Math.min(layout.paper.margin.bottom, 50) } }), 'label-margin-top', 0, 50))}
                {row(t('marginLeft'), num(layout.paper.margin.left, (left) => setPaper({ margin: { ...layout.paper.margin, left } }), 'label-margin-left', 0, 50))}
                {row(t('code'), <Segmented size="small" value={layout.code} onChange={(code) => set({ code: code as LabelCode })} options={LabelCode.map((c) => ({ value: c, label: t(`codes.${c}`) }))} data-testid="label-code" />)}
                {row(t('codeSize'), num(layout.codeSize, (codeSize) => set({ codeSize }), 'label-code-size', 3, 100))}
                {row(
                  t('font'),
                  <Select size="small" style={{ width: '100%' }} value={layout.font ?? 'sans'} onChange={(font) => set({ font })} options={FontFamily.map((f) => ({ value: f, label: root(`system-office.printTemplate.designer.fonts.${f}`) }))} />,
                )}
                {row(t('border'), <Switch size="small" checked={layout.border} onChange={(border) => set({ border })} data-testid="label-border" />)}
              </Row>
              <Typography.Title level={5}>{t('fields')}</Typography.Title>
              {fieldKeys.map((key) => {
                const f = shownField(key);
                return (
                  <div className="p8-label-setting" key={key} data-testid={`label-field-${key}`}>
                    <Checkbox checked={!!f} onChange={(e) => toggleField(key, e.target.checked)}>
                      {LABEL_FIELDS[kind][key][lang]}
                    </Checkbox>
                    {f && (
                      <Space size={6}>
                        <Checkbox checked={f.label} onChange={(e) => setField(key, { label: e.target.checked })}>
                          {t('withLabel')}
                        </Checkbox>
                        <InputNumber size="small" min={5} max={36} step={0.5} value={f.fontSize} style={{ width: 64 }} onChange={(v) => v !== null && setField(key, { fontSize: Number(v) })} aria-label={t('fontSize')} />
                        <Switch size="small" checked={f.bold} onChange={(bold) => setField(key, { bold })} checkedChildren="B" unCheckedChildren="B" />
                      </Space>
                    )}
                  </div>
                );
              })}
              <Typography.Title level={5}>{t('records')}</Typography.Title>
              <Table
                size="small"
                rowKey="id"
                pagination={false}
                scroll={{ y: 200 }}
                dataSource={[...records]}
                columns={[
                  { title: LABEL_FIELDS[kind].code[lang], dataIndex: 'code', width: 110 },
                  { title: LABEL_FIELDS[kind].name[lang], dataIndex: 'name', ellipsis: true },
                  ...(packed
                    ? [
                        { title: LABEL_FIELDS.box.boxNo[lang], dataIndex: 'boxNo', width: 80 },
                        { title: LABEL_FIELDS.box.perBox[lang], dataIndex: 'perBox', width: 90 },
                      ]
                    : [
                        {
                          title: kind === 'box' ? t('boxes') : t('copies'),
                          width: 90,
                          render: (_: unknown, r: { id: number }) => <InputNumber size="small" min={0} max={MAX_LABELS} value={copies[r.id] ?? 1} onChange={(v) => setCopies((c) => ({ ...c, [r.id]: Number(v ?? 0) }))} data-testid={`label-copies-${r.id}`} />,
                        },
                      ]),
                  ...(kind === 'box' && !packed
                    ? [{ title: t('perBox'), width: 100, render: (_: unknown, r: { id: number }) => <Input size="small" value={perBox[r.id] ?? ''} onChange={(e) => setPerBox((p) => ({ ...p, [r.id]: e.target.value }))} data-testid={`label-per-box-${r.id}`} /> }]
                    : []),
                ]}
              />
            </>
          )}
        </Col>
        <Col span={15}>
          <div className="p8-print-sheets" style={{ maxHeight: '72vh' }} ref={sheetsRef} data-testid="label-print-sheets">
            {layout && !refusal && <LabelSheets kind={kind} layout={layout} labels={labels} lang={lang} />}
          </div>
        </Col>
      </Row>
      {job.printing && layout && (
        <PrintRoot css={labelPageRule(layout)} testId="label-print-root">
          <LabelSheets kind={kind} layout={layout} labels={labels} lang={lang} />
        </PrintRoot>
      )}
    </Modal>
  );
}
