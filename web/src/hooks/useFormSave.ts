import { useState } from 'react';
import type { FormInstance } from 'antd';

/**
 * The save button of a form that is not a dialog (a settings page, an agreement): `submit` validates the
 * form (the fields show what is wrong) and, when it passes, runs `save` with the values while `saving` is
 * true. A refused call has already been shown by the HTTP client; `submit` never rejects.
 */
export function useFormSave<V>(form: FormInstance<V>, save: (values: V) => Promise<void>): { saving: boolean; submit: () => Promise<void> } {
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await save(values);
    } catch {
      /* the HTTP client has shown the server's reason */
    } finally {
      setSaving(false);
    }
  };
  return { saving, submit };
}
