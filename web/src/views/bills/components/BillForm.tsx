import { useEffect, useMemo, useState } from 'react';
import { Button, Col, Drawer, Form, Input, Modal, Row, Space, Spin, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import type { BillLineView, BillView } from '@p8/contract/bills/api';
import { billApiPath, billButtonCode, BILL_ACTION_LABELS, amountless, headerFields, lineKindOf, type BillTypeDecl } from '@p8/contract/bills/registry';
import { MrpPlan } from '@p8/contract/bills/production';
import { microText, roundTo, sum, toMicro } from '@p8/contract/bills/decimal';
import { BILL_OPERATION_LABELS, BILL_STATUS_LABELS, DELIVERY_OPERATION_LABELS, DELIVERY_STATUS_LABELS, POSTED_STATUSES, type BillOperation, type DeliveryStatus } from '@p8/contract/bills/status';
import { Auth } from '../../../components/Auth/index.tsx';
import { FormChangedContext, useUnsavedChanges } from '../../../components/FormDialog/unsaved.ts';
import AttachmentUpload from '../../../components/Upload/AttachmentUpload.tsx';
import { UploadedContext, useFormUploads } from '../../../components/Upload/discard.ts';
import { http } from '../../../app/http.ts';
import { showUnshown } from '../kit-errors.ts';
import { feedback } from '../../../app/feedback.ts';
import { translateError } from '../../../locales/index.ts';
import useTenantConfig from '../../../hooks/useTenantConfig.ts';
import { formatNumber } from '../../../components/ProTable/format.ts';
import { formatMoney } from '../../../components/Finance/money.ts';
import { amountRules, conditionKeys, type GridLine, formHeaderFields, gridTotals, labelOf, liveLineAmount, offeredOperations, savePayload, shownHeaderFields, waitingOf } from '../kit.ts';
import { DIALOG_PICKED, FieldControl } from './controls.tsx';
import BillLines, { lineOfView } from './BillLines.tsx';
import BillTimeline from './BillTimeline.tsx';
import PushDownDialog from './PushDownDialog.tsx';
import PrintPreview from './PrintPreview.tsx';
import PackingButton from './PackingButton.tsx';
import MrpRunButton from './MrpRunButton.tsx';
import { PrefetchPrintTemplates } from '../api/print-templates.ts';
import { fieldRules } from './field-rules.ts';
import { STATUS_COLOR } from './status.ts';
import '../bills.css';

interface BillFormProps {
  decl: BillTypeDecl;
  /** The bill to show; none for a new one. */
  id?: number;
  onClose: () => void;
  /** Told after any write (the list reloads). */
  onChanged: () => void;
  /** Show another bill (a push-down or merge made a new draft). */
  onOpen: (id: number) => void;
}

/** A loaded bill as the form holds it: pickers as `{ id, name }`, lines with their material. */
function formValues(decl: BillTypeDecl, bill: BillView): Record<string, unknown> {
  const values: Record<string, unknown> = { ...bill };
  // Every declared header field, whatever the tenant's switches: a field behind a switch (an order's customer
  // machined for) is shown once the config has loaded, and must hold its picked record by then.
  for (const field of headerFields(decl)) {
    if (field.kind === 'record' && DIALOG_PICKED.has(field.ref!) && bill[field.key]) {
      values[field.key] = { id: bill[field.key], name: bill[field.key.replace(/Id$/, 'Name')] ?? `#${String(bill[field.key])}` };
    }
  }
  values.lines = bill.lines.map((l: BillLineView) => lineOfView(l));
  return values;
}

/**
 * The one bill form of every type: header fields, the line grid, attachments and totals from the
 * type's declaration; the operations the status allows, each behind its button code; the timeline and
 * the print preview. Saving sends exactly the type's editable fields (the contract's save schema).
 */
export default function BillForm({ decl, id, onClose, onChanged, onOpen }: BillFormProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const { config, settings } = useTenantConfig();
  const [form] = Form.useForm();
  const api = billApiPath(decl).replace(/^\/api/, '');
  const bill = useQuery({ queryKey: ['bill', decl.type, id], queryFn: () => http.get<BillView>(`${api}/${id}`), enabled: !!id });
  const [busy, setBusy] = useState(false);
  const [refusing, setRefusing] = useState(false);
  const [refuseReason, setRefuseReason] = useState('');
  const [pushing, setPushing] = useState(false);
  const [printing, setPrinting] = useState(false);
  const printed = useMemo(() => (bill.data ? [bill.data] : []), [bill.data]);
  // Close, Esc and opening another bill ask before throwing away what was typed and not saved.
  const unsaved = useUnsavedChanges();
  // Attachments uploaded and not saved are discarded when the form is closed without them (as form dialogs do).
  const uploads = useFormUploads();
  const close = () =>
    unsaved.confirmClose(() => {
      uploads.discard();
      onClose();
    });
  const status = bill.data?.billStatus;
  const delivery = ((bill.data as { deliveryStatus?: DeliveryStatus | null } | undefined)?.deliveryStatus ?? 'NotDelivered') as DeliveryStatus;
  const offered = offeredOperations(decl, id ? status : undefined, delivery, bill.data as Record<string, unknown> | undefined);
  const editable = offered.save;
  const rules = useMemo(() => amountRules(decl, settings, config), [decl, settings, config]);
  const allHeader = useMemo(() => formHeaderFields(decl, config), [decl, config]);
  // Fields shown only for some values of another (an opening balance's customer or supplier) follow it.
  const watchedKeys = useMemo(() => conditionKeys(decl), [decl]);
  // The watched values as one text, so that the form re-renders only when one of them changes.
  const conditions = Form.useWatch((values: Record<string, unknown>) => JSON.stringify(watchedKeys.map((key) => values?.[key] ?? null)), form);
  const header = useMemo(() => {
    const watched = JSON.parse(conditions ?? '[]') as unknown[];
    return shownHeaderFields(allHeader, Object.fromEntries(watchedKeys.map((key, index) => [key, watched[index]])));
  }, [allHeader, watchedKeys, conditions]);

  useEffect(() => {
    if (bill.data) {
      // The lines are set as one value: setFieldsValue merges leaf by leaf, copying the lines array for each
      // cell — quadratic in the bill's length (seconds at 2,750 lines).
      const { lines, ...header } = formValues(decl, bill.data);
      form.setFieldsValue(header);
      form.setFieldValue('lines', lines);
    }
    else if (!id) form.setFieldsValue({ billDate: dayjs().format('YYYY-MM-DD'), lines: [] });
  }, [bill.data, decl, form, id]);

  const code = (action: Parameters<typeof billButtonCode>[1]) => billButtonCode(decl, action);

  /**
   * Runs a write, tells the list, and shows the bill it leaves (or stays). Never rejects: a refusal was
   * already shown by the http layer as its catalogued message (any other failure is shown here), so no
   * click leaves an unhandled rejection behind. Resolves whether the write went through.
   */
  const run = async (work: () => Promise<unknown>, then?: (answer: unknown) => void): Promise<boolean> => {
    setBusy(true);
    try {
      const answer = await work();
      // Joint review: an approval that leaves the bill waiting for other reviewers says so.
      const waiting = waitingOf(answer);
      if (waiting) feedback.message.info(t('bill.waitingFor', { message: translateError(waiting.key), names: waiting.names.join(lang === 'en' ? ', ' : '、') }));
      else feedback.message.success(t('bill.done'));
      onChanged();
      if (then) then(answer);
      else await bill.refetch();
      return true;
    } catch (error) {
      showUnshown(error);
      return false;
    } finally {
      setBusy(false);
    }
  };

  /** Saves the form; resolves whether it went through (a form that does not validate shows its messages beside the fields). */
  const save = async (): Promise<boolean> => {
    const values = (await form.validateFields().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!values) return false;
    // The whole store, not only the validated fields: a line keeps what no control edits (its id, the
    // source bill a settlement line settles); savePayload sends only the type's declared fields.
    const payload = savePayload(decl, { ...(form.getFieldsValue(true) as Record<string, unknown>), id }, config);
    return run(
      async () => {
        const answer = await (id ? http.put(api, payload) : http.post<{ id: number }>(api, payload));
        unsaved.saved();
        uploads.saved();
        return answer;
      },
      (answer) => {
        if (!id && answer && typeof answer === 'object' && 'id' in answer) onOpen((answer as { id: number }).id);
        else void bill.refetch();
      },
    );
  };
  const operate = (operation: Exclude<BillOperation, 'save' | 'pushDown' | 'merge' | 'delete' | 'refuse'>) => run(() => http.post(`${api}/${operation}`, { id }));
  /**
   * Submit sends the bill as the form shows it: a draft with edits is saved first, an untouched one is
   * checked (a pushed-down draft may still lack a required field, such as a refund's type) — never the
   * stored version behind the user's back.
   */
  const submit = async () => {
    const ready = unsaved.isDirty() ? await save() : await form.validateFields().then(() => true, () => false);
    if (ready) await operate('submit');
  };
  // Delivery (types with the delivery button): once audited, confirm sent, then arrived.
  const delivers = decl.actions.includes('delivery') && !!status && POSTED_STATUSES.includes(status);
  const nextDelivery = delivery === 'NotDelivered' ? 'deliver' : delivery === 'InDelivery' ? 'arrive' : undefined;

  const title = (
    <Space>
      <span>{labelOf(decl.label, lang)}</span>
      {bill.data && <Typography.Text copyable={{ text: bill.data.billCode }}>{bill.data.billCode}</Typography.Text>}
      {status && (
        <Tag color={STATUS_COLOR[status]} data-testid="bill-status">
          {labelOf(BILL_STATUS_LABELS[status], lang)}
        </Tag>
      )}
      {delivers && (
        <Tag color={delivery === 'Arrived' ? 'green' : delivery === 'InDelivery' ? 'blue' : 'default'} data-testid="bill-delivery-status">
          {labelOf(DELIVERY_STATUS_LABELS[delivery], lang)}
        </Tag>
      )}
    </Space>
  );

  const opButton = (operation: BillOperation, action: Parameters<typeof billButtonCode>[1], onClick: () => void, danger = false) => (
    <Auth code={code(action)} key={operation}>
      <Button danger={danger} loading={busy} onClick={onClick} data-testid={`bill-op-${operation}`}>
        {labelOf(BILL_OPERATION_LABELS[operation], lang)}
      </Button>
    </Auth>
  );

  const footer = (
    <Space wrap>
      {!id && decl.sources.length > 0 && (
        <Auth code={code('add')}>
          <Button onClick={() => setPushing(true)} data-testid="bill-pushdown">
            {t('bill.fromSources')}
          </Button>
        </Auth>
      )}
      {editable && (
        <Auth code={code(id ? 'update' : 'add')}>
          <Button type="primary" loading={busy} onClick={() => void save()} data-testid="bill-save">
            {labelOf(BILL_OPERATION_LABELS.save, lang)}
          </Button>
        </Auth>
      )}
      {/* An inspection that packs: its boxes, packed while it may still be saved. */}
      {id && decl.packs && bill.data && <PackingButton decl={decl} id={id} lines={bill.data.lines} editable={editable} />}
      {/* An MRP plan runs MRP again as a background job (its saved demands against today's stock and supply). */}
      {id && editable && decl.type === MrpPlan.type && (
        <MrpRunButton
          decl={decl}
          id={id}
          ready={() => (unsaved.isDirty() ? save() : Promise.resolve(true))}
          onDone={() => {
            onChanged();
            void bill.refetch();
          }}
        />
      )}
      {id && offered.submit && opButton('submit', 'submit', () => void submit())}
      {id && offered.audit && opButton('audit', 'audit', () => void operate('audit'))}
      {id && offered.refuse && opButton('refuse', 'audit', () => {
        setRefuseReason('');
        setRefusing(true);
      }, true)}
      {id && offered.abandonAudit && opButton('abandonAudit', 'abandonAudit', () => void operate('abandonAudit'), true)}
      {id && offered.manualCompletion && opButton('manualCompletion', 'manualCompletion', () => void operate('manualCompletion'))}
      {id && delivers && nextDelivery && (
        <Auth code={code('delivery')}>
          <Button loading={busy} onClick={() => void run(() => http.post(`${api}/delivery`, { id, operation: nextDelivery }))} data-testid={`bill-delivery-${nextDelivery}`}>
            {labelOf(DELIVERY_OPERATION_LABELS[nextDelivery], lang)}
          </Button>
        </Auth>
      )}
      {id && decl.actions.includes('print') && (
        <Auth code={code('print')}>
          <PrefetchPrintTemplates decl={decl} lang={lang} />
          <Button onClick={() => setPrinting(true)} data-testid="bill-print">
            {labelOf(BILL_ACTION_LABELS.print, lang)}
          </Button>
        </Auth>
      )}
      <Button onClick={close} data-testid="bill-close">{t('bill.close')}</Button>
    </Space>
  );

  return (
    <Drawer open width="calc(100vw - 220px)" title={title} onClose={close} footer={footer} destroyOnHidden data-testid="bill-form">
      {/* Ctrl+S (⌘S) saves an editable bill: entering a bill never needs the mouse. */}
      <div
        onKeyDown={(event) => {
          if (event.key.toLowerCase() !== 's' || !(event.ctrlKey || event.metaKey) || event.altKey) return;
          event.preventDefault();
          if (editable && !busy) void save();
        }}
      >
      <Spin spinning={!!id && bill.isPending}>
        <Form form={form} layout="vertical" disabled={!editable} className="bill-form" requiredMark onValuesChange={unsaved.changed}>
          <FormChangedContext.Provider value={unsaved.changed}>
          <Row gutter={16}>
            {header.map((field) => (
              <Col span={field.kind === 'richText' ? 24 : field.kind === 'textarea' || field.kind === 'staffList' ? 12 : 6} key={field.key}>
                <Form.Item
                  name={field.key}
                  label={labelOf(field.label, lang)}
                  rules={field.key === 'billCode' ? undefined : fieldRules(field, t)}
                  extra={field.key === 'billDate' && decl.stock !== 'none' ? <span data-testid="bill-date-hint">{t('bill.valuationOrder', { days: config?.billDateMaxDaysAhead ?? 30 })}</span> : undefined}
                >
                  {field.key === 'billCode' ? <Input placeholder={t('bill.codeAuto')} maxLength={50} data-testid="bill-field-billCode" /> : <FieldControl field={field} lang={lang} testId={`bill-field-${field.key}`} />}
                </Form.Item>
              </Col>
            ))}
          </Row>
          {lineKindOf(decl) !== 'none' && <BillLines decl={decl} config={config} rules={rules} view={!editable} lang={lang} />}
          {/* The totals follow the lines by reference: antd's useWatch compares by JSON text, a whole bill per keystroke. */}
          <Form.Item noStyle shouldUpdate={(prev, next) => prev.lines !== next.lines || (!!decl.extraAmount && prev[decl.extraAmount] !== next[decl.extraAmount])}>
            {({ getFieldValue }) =>
              amountless(decl) ? null : lineKindOf(decl) === 'material' ? (
                <Totals decl={decl} lines={getFieldValue('lines') as GridLine[] | undefined} rules={rules} digits={settings} tax={rules.tax} negative={Number(bill.data?.number ?? 0) < 0} />
              ) : (
                <MoneyTotals decl={decl} lines={getFieldValue('lines') as MoneyLine[] | undefined} extra={decl.extraAmount ? (getFieldValue(decl.extraAmount) as string | number | null | undefined) : undefined} digits={settings.amountRetainsSmallDigit} hasLines={lineKindOf(decl) !== 'none'} />
              )
            }
          </Form.Item>
          {/* Outside the item: the item hands its value and onChange to its direct child. */}
          <UploadedContext.Provider value={uploads.uploaded}>
            <Form.Item name="attachments" label={t('bill.attachments')}>
              <AttachmentUpload />
            </Form.Item>
          </UploadedContext.Provider>
          </FormChangedContext.Provider>
        </Form>
        {bill.data?.rejectReason && (
          <Typography.Paragraph type="danger" data-testid="bill-reject-reason">
            {t('bill.refuseReason')}: {bill.data.rejectReason}
          </Typography.Paragraph>
        )}
        {id && <BillTimeline api={api} id={id} version={bill.dataUpdatedAt} lang={lang} />}
      </Spin>
      </div>
      <Modal
        open={refusing}
        title={labelOf(BILL_OPERATION_LABELS.refuse, lang)}
        onCancel={() => setRefusing(false)}
        destroyOnHidden
        okButtonProps={{ 'data-testid': 'bill-refuse-ok' } as never}
        onOk={async () => {
          const reason = refuseReason.trim();
          // The dialog stays open without a reason, or when the refusal is refused.
          if (!reason) return void feedback.message.warning(t('error.PleaseInputRejectReason'));
          if (await run(() => http.post(`${api}/refuse`, { id, reason }))) setRefusing(false);
        }}
      >
        <Input.TextArea rows={3} maxLength={500} placeholder={t('bill.refuseReason')} value={refuseReason} onChange={(e) => setRefuseReason(e.target.value)} data-testid="bill-refuse-reason" />
      </Modal>
      {pushing && (
        <PushDownDialog
          decl={decl}
          api={api}
          lang={lang}
          partnerId={(form.getFieldValue('customerId') ?? form.getFieldValue('supplierId') ?? undefined) as number | undefined}
          onClose={() => setPushing(false)}
          onDone={(newId) => {
            setPushing(false);
            onChanged();
            onOpen(newId);
          }}
        />
      )}
      {printing && bill.data && <PrintPreview decl={decl} bills={printed} config={config} digits={settings} lang={lang} onClose={() => setPrinting(false)} />}
    </Drawer>
  );
}

/** The bill's live totals: lines, quantity, amount (and with tax), with the tenant's digits. */
/** The live totals of a bill's lines; `negative` (a red-letter invoice, stored so) shows them with its sign, as the list does. */
function Totals({ decl, lines, rules, digits, tax, negative }: { decl: BillTypeDecl; lines: GridLine[] | undefined; negative: boolean; rules: ReturnType<typeof amountRules>; digits: { numberRetainsSmallDigit: number; amountRetainsSmallDigit: number }; tax: boolean }) {
  const { t } = useTranslation();
  const totals = useMemo(() => {
    const found = gridTotals(decl, lines ?? [], rules);
    const signed = (value: number) => (negative && value !== 0 ? -value : value);
    return { ...found, number: signed(found.number), priceTotal: signed(found.priceTotal), taxPriceTotal: signed(found.taxPriceTotal) };
  }, [decl, lines, rules, negative]);
  return (
    <div className="bill-totals" data-testid="bill-totals">
      <span>
        {t('bill.lineCount')}: <b>{totals.lines}</b>
      </span>
      <span>
        {t('bill.totalNumber')}: <b data-testid="bill-total-number">{formatNumber(totals.number, digits.numberRetainsSmallDigit)}</b>
      </span>
      <span>
        {t('bill.totalAmount')}: <b data-testid="bill-total-amount">{formatNumber(totals.priceTotal, digits.amountRetainsSmallDigit)}</b>
      </span>
      {tax && (
        <span>
          {t('bill.totalTaxAmount')}: <b>{formatNumber(totals.taxPriceTotal, digits.amountRetainsSmallDigit)}</b>
        </span>
      )}
    </div>
  );
}

/** The live total of a bill of money: its lines' amounts and its amount beyond them (an advance), exactly. */
type MoneyLine = Record<string, unknown> & { amount?: string | number | null };

function MoneyTotals({ decl, lines, extra, digits, hasLines }: { decl: BillTypeDecl; lines: MoneyLine[] | undefined; extra: string | number | null | undefined; digits: number; hasLines: boolean }) {
  const { t } = useTranslation();
  const extraKey = decl.extraAmount;
  const total = useMemo(() => {
    // Half-typed text ("-", "1.") counts as nothing until it is a number.
    const round = (v: string | number | null | undefined) => (/^-?\d+(\.\d+)?$/.test(String(v ?? '')) ? roundTo(toMicro(String(v)), digits) : 0n);
    return microText(sum([...(lines ?? []).map((l) => liveLineAmount(decl, l ?? {}, digits) ?? round(l?.amount)), extraKey ? round(extra) : 0n]));
  }, [lines, extra, extraKey, digits, decl]);
  return (
    <div className="bill-totals" data-testid="bill-totals">
      {hasLines && (
        <span>
          {t('bill.lineCount')}: <b>{lines?.length ?? 0}</b>
        </span>
      )}
      <span>
        {t('bill.totalAmount')}: <b data-testid="bill-total-amount">{formatMoney(total, digits)}</b>
      </span>
    </div>
  );
}
