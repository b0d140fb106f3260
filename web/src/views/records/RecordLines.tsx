import { useMemo } from 'react';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RecordLinesDecl } from '@p8/contract/records/registry';
import LineGrid, { type LineColumn } from '../../components/LineGrid/index.tsx';
import { testIdOf, type RecordKey } from '../../components/RecordKit/record-key.ts';
import { fieldControl, fieldRules, valuePropOf } from './fields.tsx';

type Line = Record<string, unknown>;

/** A new line: the fields' declared starting values (a switch starts off). */
export const newRecordLine = (lines: RecordLinesDecl): Line =>
  Object.fromEntries(lines.fields.flatMap((f) => (f.initial !== undefined ? [[f.key, f.initial]] : f.kind === 'boolean' ? [[f.key, false]] : [])));

/** A line as a save sends it: texts trimmed, what was left empty as null (the named record's own applies). */
export const sentRecordLine = (lines: RecordLinesDecl, line: Line): Line =>
  Object.fromEntries(lines.fields.map((f) => [f.key, typeof line[f.key] === 'string' ? (line[f.key] as string).trim() || null : (line[f.key] ?? null)]));

/**
 * The lines of a declared record kind (a routing's steps) in its dialog: one grid row per line, a cell per
 * line field with the same control and checks as a field of the record, rows kept in their order (the order
 * is the lines' order), at least `min` and at most `max` of them.
 */
export default function RecordLines({ lines, record, lang, view }: { lines: RecordLinesDecl; record: RecordKey; lang: 'zh' | 'en'; view: boolean }) {
  const { t, i18n } = useTranslation();
  const isKey = (key: string) => i18n.exists(`error.${key}`);
  const columns = useMemo<LineColumn<Line>[]>(
    () =>
      lines.fields.map((field) => ({
        key: field.key,
        field: field.key,
        title: field.label[lang],
        width: field.width,
        align: field.kind === 'quantity' || field.kind === 'amount' || field.kind === 'number' ? 'right' : undefined,
        rules: fieldRules(field, field.label[lang], t, isKey),
        valuePropName: valuePropOf(field),
        watch: 'none',
        render: ({ testId }) => fieldControl(field, { record, lang, testId, size: 'small' }),
      })),
    // isKey reads i18n, which `t` follows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [lines, record, lang, t],
  );
  return (
    <Form.Item label={lines.label[lang]} required={lines.min > 0} tooltip={lines.fields.map((f) => f.help && `${f.label[lang]}: ${f.help[lang]}`).filter(Boolean).join('; ') || undefined}>
      <LineGrid<Line>
        name={lines.key}
        rowTestId={testIdOf(record, lines.key)}
        data-testid={testIdOf(record, `${lines.key}-grid`)}
        columns={columns}
        view={view}
        maxRows={lines.max}
        newRow={() => newRecordLine(lines)}
        rules={[
          {
            validator: async (_, rows: Line[] | undefined) => {
              if ((rows ?? []).length < lines.min) throw new Error(t(`error.${lines.tooFew}`));
            },
          },
        ]}
      />
    </Form.Item>
  );
}
