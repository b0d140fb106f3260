import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { Alert, App, Button, Checkbox, Empty, Input, InputNumber, Modal, Segmented, Select, Space, Switch, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, RedoOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { BillView } from '@p8/contract/bills/api';
import { billType } from '@p8/contract/bills/catalogue';
import { billApiPath } from '@p8/contract/bills/registry';
import {
  ElementType,
  FIELD_ELEMENTS,
  FONT_STACKS,
  FontFamily,
  fontStack,
  layoutRefusal,
  pageSize,
  PAPER_SIZES,
  PaperKind,
  printableHeaderFields,
  printableLineFields,
  type PrintElement,
  type PrintLayout,
  type PrintTemplateRow,
} from '@p8/contract/print/template';
import { http } from '../../../../app/http.ts';
import PrintPages, { companyOf, elementStyle, type PrintContext } from '../../../../components/PrintPage/index.tsx';
import { useSheetsInView } from '../../../../components/PrintPage/sheets-in-view.ts';
import useTenantConfig from '../../../../hooks/useTenantConfig.ts';
import { useAuthStore } from '../../../../stores/auth.ts';
import { updatePrintTemplate } from '../api/update-print-template.ts';
import { addElement, bandEdges, changed, freshId, newElement, redo, removeElement, snap, startDesign, undo, withElement, type Band, type DesignState } from './design-state.ts';
import './designer.css';

/** Screen pixels per millimetre on the design page. */
const SCALE = 3.2;
const px = (mm: number) => mm * SCALE;

/** The rulers' breadth in pixels. */
const RULER = 18;

/** A ruler along the page: a tick every millimetre, longer every 5, numbered every 10 (centimetres). */
function Ruler({ length, direction }: { length: number; direction: 'horizontal' | 'vertical' }) {
  const ticks = [];
  for (let at = 0; at <= length; at++) {
    const size = at % 10 === 0 ? RULER : at % 5 === 0 ? RULER / 2 : RULER / 4;
    ticks.push(
      <span key={at} className="p8-design-tick" style={direction === 'horizontal' ? { left: px(at), height: size } : { top: px(at), width: size }}>
        {at % 10 === 0 && at > 0 ? at / 10 : null}
      </span>,
    );
  }
  return (
    <div className={`p8-design-ruler ${direction}`} style={direction === 'horizontal' ? { width: px(length), height: RULER } : { height: px(length), width: RULER }} aria-hidden>
      {ticks}
    </div>
  );
}

interface Drag {
  band: Band;
  id: string;
  mode: 'move' | 'resize';
  startX: number;
  startY: number;
  origin: PrintElement;
  now: PrintElement;
}

/**
 * The print template designer: the page at scale with its header band, table and footer band; elements
 * dragged from the palette onto a band, moved and resized with the mouse (snapping to the millimetre grid
 * and to the edges of the band and the other elements); a property panel for the selected element or, with
 * none selected, the page and the table; undo and redo; and the live preview of the latest bill of the type
 * on the template as it stands.
 */
export default function Designer({ template, onClose, onSaved }: { template: PrintTemplateRow; onClose: () => void; onSaved: () => void }) {
  const { t, i18n } = useTranslation(undefined, { keyPrefix: 'system-office.printTemplate.designer' });
  const { t: root } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message } = App.useApp();
  const decl = billType(template.billType)!;
  const [state, setState] = useState<DesignState>(() => startDesign(template.layout));
  const [drag, setDrag] = useState<Drag | null>(null);
  const [mode, setMode] = useState<'design' | 'preview'>('design');
  const [saving, setSaving] = useState(false);
  const layout = state.present;
  const page = pageSize(layout.paper);
  const innerWidth = page.width - layout.paper.margin.left - layout.paper.margin.right;
  const heads = useMemo(() => printableHeaderFields(decl), [decl]);
  const cols = useMemo(() => printableLineFields(decl), [decl]);
  const refusal = layoutRefusal(decl, layout);
  const update = useCallback((next: PrintLayout) => setState((s) => changed(s, next)), []);

  // Undo / redo from the keyboard as well (Ctrl+Z, Ctrl+Y or Ctrl+Shift+Z), outside text fields.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || (event.target as HTMLElement).closest('input, textarea')) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) setState(undo);
      else if (key === 'y' || (key === 'z' && event.shiftKey)) setState(redo);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Moving and resizing: the element follows the mouse, snapped; one history step when let go.
  const dragRef = useRef<Drag | null>(null);
  const dragging = drag !== null;
  useEffect(() => {
    if (!dragging) return;
    const move = (event: PointerEvent) => {
      const d = dragRef.current;
      if (!d) return;
      const dx = (event.clientX - d.startX) / SCALE;
      const dy = (event.clientY - d.startY) / SCALE;
      const o = d.origin;
      const edges = (axis: 'x' | 'y') => bandEdges(layout, d.band, innerWidth, o.id, axis);
      const now =
        d.mode === 'move'
          ? { ...o, x: snap(o.x + dx, o.w, edges('x')), y: snap(o.y + dy, o.h, edges('y')) }
          : { ...o, w: Math.max(1, snap(o.x + o.w + dx, 0, edges('x')) - o.x), h: Math.max(o.type === 'line' ? 0.3 : 1, snap(o.y + o.h + dy, 0, edges('y')) - o.y) };
      dragRef.current = { ...d, now };
      setDrag(dragRef.current);
    };
    const up = () => {
      const d = dragRef.current;
      dragRef.current = null;
      setDrag(null);
      if (d) setState((s) => changed(s, withElement(s.present, d.band, d.now, innerWidth), { band: d.band, id: d.id }));
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
  }, [dragging, layout, innerWidth]);

  const startDrag = (event: ReactPointerEvent, band: Band, e: PrintElement, dragMode: Drag['mode']) => {
    event.stopPropagation();
    event.preventDefault();
    setState((s) => ({ ...s, selected: { band, id: e.id } }));
    dragRef.current = { band, id: e.id, mode: dragMode, startX: event.clientX, startY: event.clientY, origin: e, now: e };
    setDrag(dragRef.current);
  };

  const defaultField = (type: ElementType) => (type === 'capitals' ? (heads.find((f) => f.key === 'priceTotal') ?? heads.find((f) => f.kind === 'amount'))?.key : type === 'field' ? heads[0]?.key : 'billCode');
  const add = (type: ElementType, band: Band, x: number, y: number) =>
    setState((s) => addElement(s, band, newElement(type, freshId(s.present, type), x, y, defaultField(type), t('newText')), innerWidth));
  const drop = (event: DragEvent, band: Band) => {
    const type = event.dataTransfer.getData('text/p8-print-element') as ElementType;
    if (!ElementType.includes(type)) return;
    event.preventDefault();
    const rect = (event.currentTarget as HTMLElement).getBoundingClientRect();
    add(type, band, snap((event.clientX - rect.left) / SCALE, 0, []), snap((event.clientY - rect.top) / SCALE, 0, []));
  };

  const selected = state.selected ? layout[state.selected.band].elements.find((e) => e.id === state.selected!.id) : undefined;
  const setSelected = (patch: Partial<PrintElement>) => state.selected && selected && update(withElement(layout, state.selected.band, { ...selected, ...patch }, innerWidth));

  // The live preview: the type's latest bill, as it prints on the template as it stands.
  const user = useAuthStore((s) => s.userInfo);
  const { config, settings } = useTenantConfig();
  const api = billApiPath(decl).replace(/^\/api/, '');
  const sample = useQuery({
    queryKey: ['print-designer-sample', decl.type],
    enabled: mode === 'preview',
    queryFn: async () => {
      const [latest] = (await http.list<{ id: number }>(api, { current: 1, pageSize: 1 }, { noLoading: true, silent: true })).data;
      return latest ? http.get<BillView>(`${api}/${latest.id}`, undefined, { noLoading: true, silent: true }) : null;
    },
  });
  const userName = user?.realName || user?.name || '';
  const ctx: PrintContext = useMemo(() => ({ lang, digits: settings, company: companyOf(config), user: userName, printedAt: dayjs().format('YYYY-MM-DD HH:mm') }), [lang, settings, config, userName]);
  // A long bill's preview draws only the pages near its view, as the print dialog's.
  const { setBox: setPreviewBox, drawn: previewDrawn } = useSheetsInView();

  const save = async () => {
    setSaving(true);
    try {
      await updatePrintTemplate({ id: template.id, billType: template.billType, name: template.name, isDefault: template.isDefault, enabled: template.enabled, remark: template.remark, layout });
      message.success(t('saved'));
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  const label = (e: PrintElement) => {
    const field = heads.find((f) => f.key === e.field)?.label[lang] ?? e.field ?? '';
    if (e.type === 'text') return e.text ?? '';
    if (e.type === 'field') return e.label ? `${field}${lang === 'zh' ? '：' : ': '}{${field}}` : `{${field}}`;
    if (FIELD_ELEMENTS.includes(e.type)) return `${t(`types.${e.type}`)} · ${field}`;
    if (e.type === 'line' || e.type === 'box') return '';
    return t(`types.${e.type}`);
  };

  const band = (name: Band) => (
    <div
      className={`p8-design-band p8-design-band-${name}`}
      style={{ height: px(layout[name].height) }}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => drop(event, name)}
      data-testid={`designer-band-${name}`}
    >
      <span className="p8-design-band-name">{t(name)}</span>
      {layout[name].elements.map((e) => {
        const shown = drag && drag.id === e.id && drag.band === name ? drag.now : e;
        const style = elementStyle(shown);
        const isSelected = state.selected?.band === name && state.selected.id === e.id;
        return (
          <div
            key={e.id}
            className={`p8-design-el p8-design-el-${e.type}${isSelected ? ' selected' : ''}`}
            style={{ ...style, left: px(shown.x), top: px(shown.y), width: e.type === 'line' && shown.w < shown.h ? 0 : px(shown.w), height: e.type === 'line' && shown.w >= shown.h ? 0 : px(shown.h), fontSize: `${shown.fontSize * (SCALE / (96 / 25.4))}pt`, fontFamily: fontStack(shown.font) }}
            onPointerDown={(event) => startDrag(event, name, e, 'move')}
            data-testid={`designer-el-${e.id}`}
          >
            <span className="p8-design-el-text">{label(shown)}</span>
            {isSelected && <span className="p8-design-resize" onPointerDown={(event) => startDrag(event, name, e, 'resize')} data-testid="designer-resize" />}
          </div>
        );
      })}
    </div>
  );

  const num = (value: number, onChange: (v: number) => void, testId: string, min = 0, max = 2000, step = 0.5) => (
    <InputNumber size="small" value={value} min={min} max={max} step={step} style={{ width: 90 }} onChange={(v) => v !== null && onChange(Number(v))} data-testid={testId} />
  );

  // Each family shown in itself, so the choice is seen before it is made.
  const fontPicker = (value: FontFamily | undefined, onChange: (font: FontFamily) => void, testId: string) => (
    <Select
      size="small"
      style={{ width: 170 }}
      value={value ?? 'sans'}
      onChange={onChange}
      options={FontFamily.map((f) => ({ value: f, label: <span style={{ fontFamily: FONT_STACKS[f] }}>{t(`fonts.${f}`)}</span> }))}
      data-testid={testId}
    />
  );

  const moveColumn = (index: number, by: number) => {
    const columns = [...layout.table.columns];
    const [c] = columns.splice(index, 1);
    columns.splice(index + by, 0, c);
    update({ ...layout, table: { ...layout.table, columns } });
  };

  const pagePanel = (
    <div className="p8-design-props" data-testid="designer-page-props">
      <Typography.Title level={5}>{t('page')}</Typography.Title>
      <div className="p8-design-row">
        <span>{t('paper')}</span>
        <Select
          size="small"
          style={{ width: 160 }}
          value={layout.paper.kind}
          options={PaperKind.map((k) => ({ value: k, label: root(`system-office.printTemplate.papers.${k}`) }))}
          onChange={(kind) => update({ ...layout, paper: { ...layout.paper, kind, ...(kind === 'Custom' ? {} : { width: PAPER_SIZES[kind].width, height: PAPER_SIZES[kind].height }) } })}
          data-testid="designer-paper"
        />
      </div>
      {layout.paper.kind === 'Custom' && (
        <div className="p8-design-row">
          <span>{t('size')}</span>
          <Space size={4}>
            {num(layout.paper.width, (width) => update({ ...layout, paper: { ...layout.paper, width } }), 'designer-paper-width', 30, 600)}×
            {num(layout.paper.height, (height) => update({ ...layout, paper: { ...layout.paper, height } }), 'designer-paper-height', 30, 2000)}
          </Space>
        </div>
      )}
      <div className="p8-design-row">
        <span>{t('orientation')}</span>
        <Segmented
          size="small"
          value={layout.paper.orientation}
          options={(['portrait', 'landscape'] as const).map((o) => ({ value: o, label: root(`system-office.printTemplate.orientations.${o}`) }))}
          onChange={(orientation) => update({ ...layout, paper: { ...layout.paper, orientation } })}
          data-testid="designer-orientation"
        />
      </div>
      <div className="p8-design-row">
        <span>{t('margins')}</span>
        <Space size={4} wrap>
          {(['top', 'right', 'bottom', 'left'] as const).map((side) => (
            <Tooltip key={side} title={t(`sides.${side}`)}>
              {num(layout.paper.margin[side], (v) => update({ ...layout, paper: { ...layout.paper, margin: { ...layout.paper.margin, [side]: v } } }), `designer-margin-${side}`, 0, 50)}
            </Tooltip>
          ))}
        </Space>
      </div>
      {(['header', 'footer'] as const).map((b) => (
        <div className="p8-design-row" key={b}>
          <span>{t(`${b}Height`)}</span>
          {num(layout[b].height, (height) => update({ ...layout, [b]: { ...layout[b], height } }), `designer-${b}-height`, 0, 1000)}
        </div>
      ))}
      <Typography.Title level={5}>{t('table')}</Typography.Title>
      <div className="p8-design-row">
        <span>{t('fontSize')}</span>
        {num(layout.table.fontSize, (fontSize) => update({ ...layout, table: { ...layout.table, fontSize } }), 'designer-table-font', 5, 36)}
      </div>
      <div className="p8-design-row">
        <span>{t('font')}</span>
        {fontPicker(layout.table.font, (font) => update({ ...layout, table: { ...layout.table, font } }), 'designer-table-family')}
      </div>
      <div className="p8-design-row">
        <span>{t('subtotals')}</span>
        <Switch size="small" checked={layout.table.subtotals} onChange={(subtotals) => update({ ...layout, table: { ...layout.table, subtotals } })} data-testid="designer-subtotals" />
      </div>
      <div className="p8-design-row">
        <span>{t('total')}</span>
        <Switch size="small" checked={layout.table.total} onChange={(total) => update({ ...layout, table: { ...layout.table, total } })} />
      </div>
      <div className="p8-design-columns">
        {layout.table.columns.map((c, i) => (
          <div className="p8-design-row" key={c.key} data-testid={`designer-column-${c.key}`}>
            <Checkbox checked onChange={() => update({ ...layout, table: { ...layout.table, columns: layout.table.columns.filter((x) => x.key !== c.key) } })}>
              {cols.find((f) => f.key === c.key)?.label[lang] ?? c.key}
            </Checkbox>
            <Space size={2}>
              {num(c.width, (width) => update({ ...layout, table: { ...layout.table, columns: layout.table.columns.map((x) => (x.key === c.key ? { ...x, width } : x)) } }), `designer-column-width-${c.key}`, 3, 600)}
              <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => moveColumn(i, -1)} aria-label={t('up')} />
              <Button size="small" type="text" icon={<ArrowDownOutlined />} disabled={i === layout.table.columns.length - 1} onClick={() => moveColumn(i, 1)} aria-label={t('down')} />
            </Space>
          </div>
        ))}
        {cols
          .filter((f) => !layout.table.columns.some((c) => c.key === f.key))
          .map((f) => (
            <div className="p8-design-row" key={f.key}>
              <Checkbox checked={false} onChange={() => update({ ...layout, table: { ...layout.table, columns: [...layout.table.columns, { key: f.key, width: 20 }] } })} data-testid={`designer-add-column-${f.key}`}>
                {f.label[lang]}
              </Checkbox>
            </div>
          ))}
      </div>
    </div>
  );

  const elementPanel = selected && state.selected && (
    <div className="p8-design-props" data-testid="designer-element-props">
      <Typography.Title level={5}>{t(`types.${selected.type}`)}</Typography.Title>
      {selected.type === 'text' && <Input.TextArea rows={2} value={selected.text} maxLength={500} onChange={(event) => setSelected({ text: event.target.value })} data-testid="designer-prop-text" />}
      {FIELD_ELEMENTS.includes(selected.type) && (
        <div className="p8-design-row">
          <span>{t('field')}</span>
          <Select size="small" style={{ width: 170 }} value={selected.field} showSearch={{ optionFilterProp: 'label' }} options={heads.map((f) => ({ value: f.key, label: f.label[lang] }))} onChange={(field) => setSelected({ field })} data-testid="designer-prop-field" />
        </div>
      )}
      {selected.type === 'field' && (
        <div className="p8-design-row">
          <span>{t('withLabel')}</span>
          <Switch size="small" checked={!!selected.label} onChange={(value) => setSelected({ label: value })} />
        </div>
      )}
      {selected.type === 'image' && (
        <div className="p8-design-row">
          <span>{t('src')}</span>
          <Input size="small" style={{ width: 170 }} value={selected.src} placeholder={t('srcLogo')} onChange={(event) => setSelected({ src: event.target.value })} />
        </div>
      )}
      {(['x', 'y', 'w', 'h'] as const).map((k) => (
        <div className="p8-design-row" key={k}>
          <span>{t(`box.${k}`)}</span>
          {num(selected[k], (v) => setSelected({ [k]: v }), `designer-prop-${k}`, k === 'w' || k === 'h' ? 0.2 : 0)}
        </div>
      ))}
      {selected.type === 'line' || selected.type === 'box' ? (
        <div className="p8-design-row">
          <span>{t('thickness')}</span>
          {num(selected.thickness ?? 0.3, (thickness) => setSelected({ thickness }), 'designer-prop-thickness', 0.1, 5, 0.1)}
        </div>
      ) : (
        <>
          <div className="p8-design-row">
            <span>{t('fontSize')}</span>
            {num(selected.fontSize, (fontSize) => setSelected({ fontSize }), 'designer-prop-font', 5, 72)}
          </div>
          <div className="p8-design-row">
            <span>{t('font')}</span>
            {fontPicker(selected.font, (font) => setSelected({ font }), 'designer-prop-family')}
          </div>
          <div className="p8-design-row">
            <span>{t('bold')}</span>
            <Switch size="small" checked={selected.bold} onChange={(bold) => setSelected({ bold })} />
          </div>
          <div className="p8-design-row">
            <span>{t('align')}</span>
            <Segmented size="small" value={selected.align} options={(['left', 'center', 'right'] as const).map((a) => ({ value: a, label: t(`aligns.${a}`) }))} onChange={(align) => setSelected({ align })} />
          </div>
        </>
      )}
      <Button danger size="small" icon={<DeleteOutlined />} onClick={() => setState((s) => removeElement(s, state.selected!.band, selected.id))} data-testid="designer-delete">
        {t('remove')}
      </Button>
    </div>
  );

  return (
    <Modal
      open
      width="96vw"
      style={{ top: 16 }}
      title={`${t('title')} · ${template.name}`}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      data-testid="print-designer"
    >
      <div className="p8-design-toolbar">
        <Space>
          <Tooltip title="Ctrl+Z">
            <Button icon={<UndoOutlined />} disabled={!state.past.length} onClick={() => setState(undo)} data-testid="designer-undo">
              {t('undo')}
            </Button>
          </Tooltip>
          <Tooltip title="Ctrl+Y">
            <Button icon={<RedoOutlined />} disabled={!state.future.length} onClick={() => setState(redo)} data-testid="designer-redo">
              {t('redo')}
            </Button>
          </Tooltip>
          <Segmented value={mode} options={[{ value: 'design', label: t('design') }, { value: 'preview', label: t('preview') }]} onChange={setMode} data-testid="designer-mode" />
        </Space>
        <Space>
          {refusal && <Typography.Text type="danger" data-testid="designer-refusal">{root(`error.${refusal}`)}</Typography.Text>}
          <Button type="primary" icon={<SaveOutlined />} loading={saving} disabled={!!refusal} onClick={() => void save()} data-testid="designer-save">
            {t('save')}
          </Button>
        </Space>
      </div>
      <div className="p8-design-body">
        <div className="p8-design-palette">
          <Typography.Text type="secondary">{t('palette')}</Typography.Text>
          {ElementType.map((type) => (
            <div
              key={type}
              className="p8-design-tool"
              draggable
              onDragStart={(event) => event.dataTransfer.setData('text/p8-print-element', type)}
              onDoubleClick={() => add(type, 'header', 0, 0)}
              data-testid={`designer-tool-${type}`}
            >
              {t(`types.${type}`)}
            </div>
          ))}
          <Typography.Text type="secondary" className="p8-design-hint">
            {t('paletteHint')}
          </Typography.Text>
        </div>
        <div className="p8-design-canvas">
          {mode === 'design' ? (
            <div className="p8-design-ruled" style={{ width: px(page.width) + RULER }}>
              <Ruler length={page.width} direction="horizontal" />
              <Ruler length={page.height} direction="vertical" />
              <div
                className="p8-design-page"
                style={{ width: px(page.width), minHeight: px(page.height), padding: `${px(layout.paper.margin.top)}px ${px(layout.paper.margin.right)}px ${px(layout.paper.margin.bottom)}px ${px(layout.paper.margin.left)}px` }}
                onPointerDown={() => setState((s) => ({ ...s, selected: null }))}
                data-testid="designer-page"
              >
                {band('header')}
                <div className="p8-design-table" style={{ fontSize: `${layout.table.fontSize * (SCALE / (96 / 25.4))}pt`, fontFamily: fontStack(layout.table.font) }}>
                  <div className="p8-design-table-row head">
                    {layout.table.columns.map((c) => (
                      <div key={c.key} style={{ width: px(c.width) }}>
                        {cols.find((f) => f.key === c.key)?.label[lang] ?? c.key}
                      </div>
                    ))}
                  </div>
                  {[1, 2, 3].map((n) => (
                    <div className="p8-design-table-row" key={n}>
                      {layout.table.columns.map((c) => (
                        <div key={c.key} style={{ width: px(c.width) }} />
                      ))}
                    </div>
                  ))}
                  <span className="p8-design-band-name">{t('tableHint')}</span>
                </div>
                {band('footer')}
              </div>
            </div>
          ) : sample.data ? (
            <div className="p8-print-sheets" style={{ height: '100%' }} ref={setPreviewBox} data-testid="designer-preview">
              <PrintPages layout={layout} decl={decl} bill={sample.data} ctx={ctx} logo={config?.logo ?? ''} drawn={(p) => previewDrawn(`0-${p}`)} sheetKey="0" />
            </div>
          ) : sample.isFetching ? null : (
            <Empty description={t('noBill')} />
          )}
        </div>
        <div className="p8-design-side">{elementPanel || pagePanel}</div>
      </div>
      {refusal && mode === 'preview' && <Alert type="warning" showIcon message={root(`error.${refusal}`)} />}
    </Modal>
  );
}
