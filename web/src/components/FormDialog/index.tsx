import { useCallback, useImperativeHandle, useState, type ReactNode, type Ref } from 'react';
import { Button, Form, Modal, type FormInstance, type FormProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../app/feedback.ts';
import { FormChangedContext, useUnsavedChanges } from './unsaved.ts';
import { UploadedContext, useFormUploads } from '../Upload/discard.ts';

/** Form dialogs have add, edit and view modes; view disables the form and hides submit. */
export type FormMode = 'add' | 'edit' | 'view';

export interface FormDialogProps<V extends object = Record<string, unknown>> {
  open: boolean;
  mode: FormMode;
  onClose: () => void;
  /** Sends the validated values; the dialog closes when it resolves and stays open when it rejects. */
  onSubmit?: (values: V, mode: FormMode) => Promise<unknown> | unknown;
  /** Values the form starts with (the record for edit / view). */
  initialValues?: Partial<V>;
  /** Title; default "Add / Edit / View" followed by `entity`. */
  title?: ReactNode;
  /** What the dialog is about ("staff", "role"), appended to the default title. */
  entity?: string;
  width?: number | string;
  /** The form fields; a function gets the mode and the form. */
  children: ReactNode | ((ctx: { mode: FormMode; form: FormInstance<V> }) => ReactNode);
  /**
   * The form of the current opening, for the screen to read or set fields (each opening has a fresh
   * form, so an outside instance cannot be passed in; inside the dialog use the `children` function).
   */
  formRef?: Ref<FormInstance<V> | undefined>;
  layout?: FormProps['layout'];
  labelCol?: FormProps['labelCol'];
  wrapperCol?: FormProps['wrapperCol'];
  /** Told on every value change (dependent fields). */
  onValuesChange?: FormProps<V>['onValuesChange'];
  /** Toast after a successful submit; default "saved", `false` for none. */
  successMessage?: string | false;
  okText?: ReactNode;
  /** More footer buttons, left of cancel / submit. */
  footerExtra?: ReactNode;
  'data-testid'?: string;
}

/**
 * A Modal around an antd Form with add / edit / view modes. Submit validates first, spins while
 * `onSubmit` runs, closes on success; view disables every field and shows only "close". Cancel, the
 * close button and Esc ask before throwing away what the user typed (`useUnsavedChanges`).
 */
export default function FormDialog<V extends object = Record<string, unknown>>(props: FormDialogProps<V>) {
  // Every opening gets a dialog of its own (and with it a fresh form store): values typed into the last
  // one, or antd's memory of them, never leak into the next. Closing keeps the instance for its animation.
  const [openings, setOpenings] = useState(props.open ? 1 : 0);
  const [wasOpen, setWasOpen] = useState(props.open);
  if (props.open !== wasOpen) {
    setWasOpen(props.open);
    if (props.open) setOpenings((n) => n + 1);
  }
  return <Dialog key={openings} {...props} />;
}

function Dialog<V extends object>(props: FormDialogProps<V>) {
  const { open, mode, onClose, title, entity, width = 600, okText, footerExtra } = props;
  const { t } = useTranslation();
  const [form] = Form.useForm<V>();
  useImperativeHandle(props.formRef, () => form, [form]);
  const [submitting, setSubmitting] = useState(false);
  const unsaved = useUnsavedChanges();
  const uploads = useFormUploads();
  const testId = props['data-testid'] ?? 'form-dialog';
  const view = mode === 'view';
  const heading = title ?? [t(`kit.form.${mode}`), entity].filter(Boolean).join(entity && /^[\x20-\x7e]+$/.test(entity) ? ' ' : '');

  const submit = async () => {
    if (view || submitting) return;
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return; // antd shows the field errors
    }
    setSubmitting(true);
    try {
      await props.onSubmit?.(values, mode);
      unsaved.saved();
      uploads.saved();
      if (props.successMessage !== false) feedback.message.success(props.successMessage ?? t('kit.form.saved'));
      onClose();
    } catch {
      /* the HTTP client has shown why; the dialog stays open with the user's input */
    } finally {
      setSubmitting(false);
    }
  };

  const close = () => {
    // Thrown away (after the question, when anything was typed): the files it uploaded go too.
    if (!submitting)
      unsaved.confirmClose(() => {
        uploads.discard();
        onClose();
      });
  };

  return (
    <Modal
      open={open}
      title={heading}
      width={width}
      onCancel={close}
      destroyOnHidden
      mask={{ closable: false }}
      modalRender={(node) => <div data-testid={testId}>{node}</div>}
      footer={
        <>
          {footerExtra}
          <Button onClick={close} data-testid={`${testId}-cancel`}>
            {view ? t('kit.form.close') : t('kit.form.cancel')}
          </Button>
          {!view && (
            <Button type="primary" loading={submitting} onClick={submit} data-testid={`${testId}-submit`}>
              {okText ?? t('kit.form.submit')}
            </Button>
          )}
        </>
      }
    >
      <Form<V>
        form={form}
        layout={props.layout ?? 'horizontal'}
        labelCol={props.labelCol ?? (props.layout === 'vertical' ? undefined : { flex: '110px' })}
        wrapperCol={props.wrapperCol}
        labelWrap
        initialValues={props.initialValues}
        disabled={view}
        preserve={false}
        onValuesChange={(changed, all) => {
          unsaved.changed();
          props.onValuesChange?.(changed, all);
        }}
        onFinish={submit}
        style={{ marginTop: 16 }}
      >
        <FormChangedContext.Provider value={unsaved.changed}>
          <UploadedContext.Provider value={uploads.uploaded}>{typeof props.children === 'function' ? props.children({ mode, form }) : props.children}</UploadedContext.Provider>
        </FormChangedContext.Provider>
        {/* Enter in a field submits */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}

/**
 * State of one FormDialog on a screen: `dialog.open('edit', record)`, then `<FormDialog {...dialog.props}>`.
 */
export function useFormDialog<V extends object = Record<string, unknown>>() {
  const [state, setState] = useState<{ open: boolean; mode: FormMode; initialValues?: Partial<V> }>({ open: false, mode: 'add' });
  const open = useCallback((mode: FormMode, initialValues?: Partial<V>) => setState({ open: true, mode, initialValues }), []);
  const close = useCallback(() => setState((s) => ({ ...s, open: false })), []);
  return {
    open,
    close,
    mode: state.mode,
    isOpen: state.open,
    /** Spread on FormDialog (the form is rebuilt with these values at every opening). */
    props: { open: state.open, mode: state.mode, initialValues: state.initialValues, onClose: close },
  };
}
