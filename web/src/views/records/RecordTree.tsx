import { useCallback, useMemo } from 'react';
import { Row, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { recordApiPath, recordMenuName, recordTitleField, RECORD_TREE_PARENT, type DeclaredRecord, type RecordKindDecl } from '@p8/contract/records/registry';
import { http, type QueryParams } from '../../app/http.ts';
import FormDialog, { type FormMode } from '../../components/FormDialog/index.tsx';
import type { ProColumn } from '../../components/ProTable/index.tsx';
import { testIdOf, type RecordKey } from '../../components/RecordKit/record-key.ts';
import { ExcelButtons } from '../../components/RecordKit/RecordToolbar.tsx';
import { useRecordColumns } from '../../components/RecordKit/record-columns.tsx';
import { RemarkField, SortField } from '../../components/RecordKit/record-fields.tsx';
import { ParentField, TreeRecordTable, useTreeRecords, type TreeSearch, type TreeTexts } from '../../components/RecordKit/TreeRecord.tsx';
import { LEVEL_COLORS } from '../../components/Tree/tree-utils.ts';
import { FieldItem, fieldColumn, newFieldValues, sentFieldValues, type Values } from './fields.tsx';

/** A record of a declared tree kind as its tree answers it. */
type Node = DeclaredRecord & { name: string; parentId: number | null; level: number; children?: Node[] };

/**
 * The screen of a declared tree kind (`RecordKindDecl.tree`: material categories): the whole tree as a tree
 * table, searched here by the declared searchable texts and on the server by status, with "add below" on
 * each row (not on the deepest level), a parent picker in the dialog, delete refused while a row has
 * children, enable and Excel. Every record opens the first time it is seen, everything after a search; a
 * reload keeps what the user folded.
 */
export default function RecordTree({ decl }: { decl: RecordKindDecl }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const tree = decl.tree!;
  const record = recordMenuName(decl) as RecordKey;
  const api = recordApiPath(decl);
  const title = recordTitleField(decl);
  const recordColumns = useRecordColumns();
  // The query other screens' pickers of the kind read too (the material dialog's category tree): refreshed after every write.
  const treeQueryKey = useMemo(() => [decl.area, decl.kind, 'tree'] as const, [decl]);
  const fullTree = useQuery({ queryKey: treeQueryKey, queryFn: () => http.get<Node[]>(`${api}/tree`, {}, { noLoading: true }), staleTime: 30_000 });

  const texts = useMemo<TreeTexts>(
    () => ({
      addChild: tree.addChild[lang],
      maxLevelTip: tree.maxLevelTip[lang].replace('{{max}}', String(tree.maxLevel)),
      hasChildrenTip: tree.hasChildrenTip[lang],
      parent: tree.parentLabel[lang],
      parentTip: tree.parentTip[lang],
      parentPlaceholder: tree.parentPlaceholder[lang],
    }),
    [tree, lang],
  );

  // The status filter goes to the server; the searchable texts are matched here.
  const load = useCallback((params: QueryParams) => http.get<Node[]>(`${api}/tree`, { enabled: params.enabled === undefined ? undefined : String(params.enabled) === 'true' }, { noLoading: true }), [api]);
  const search = useCallback(
    (params: QueryParams): TreeSearch<Node> => {
      const wanted = decl.fields
        .filter((f) => f.search && f.kind === 'text')
        .map((f) => [f.key, String(params[f.key] ?? '').trim().toLowerCase()] as const)
        .filter(([, text]) => text);
      const match = wanted.length ? (node: Node) => wanted.every(([key, text]) => String(node[key] ?? '').toLowerCase().includes(text)) : undefined;
      return { active: !!wanted.length || String(params.enabled ?? '') !== '', match };
    },
    [decl],
  );
  const formOf = useCallback(
    (row: Node): Values => ({ id: row.id, [RECORD_TREE_PARENT]: row.parentId, sort: row.sort, remark: row.remark, ...Object.fromEntries(decl.fields.map((f) => [f.key, row[f.key]])) }),
    [decl],
  );
  const records = useTreeRecords<Node, Values & { parentId?: number | null }>({
    load,
    search,
    openNewRows: true,
    treeQueryKey,
    remove: (ids) => http.delete<null>(api, { ids }, { silent: true }),
    enable: (ids, enabled) => http.put<null>(`${api}/enable`, { ids, enabled }, { noLoading: true, silent: true }),
    formOf,
  });
  const { writes, dialog, changed } = records;

  const columns = useMemo<ProColumn<Node>[]>(
    () => [
      ...decl.fields.map((field) => fieldColumn<Node>(field, lang, t)),
      {
        prop: 'level',
        title: t('basic.common.level'),
        width: 100,
        align: 'center',
        render: (_, row) => <Tag color={LEVEL_COLORS[row.level - 1]}>{t('basic.common.levelN', { level: row.level })}</Tag>,
      },
      { prop: 'sort', title: t('basic.common.sort'), width: 80, align: 'center' },
      recordColumns.status<Node>({
        record,
        writes,
        confirmOff: (row) => t('basic.common.disableConfirm', { name: String(row[title.key] ?? '') }),
        column: { width: 100, align: 'center' },
      }),
      { prop: 'remark', title: t('basic.common.remark'), ellipsis: true, render: (v) => (v as string) || '—' },
      { prop: 'createdAt', title: t('basic.common.createdAt'), valueType: 'dateTime', width: 170 },
    ],
    [t, lang, decl, title, record, recordColumns, writes],
  );

  const editingId = dialog.props.mode === 'add' ? undefined : dialog.props.initialValues?.id;
  const submit = async (values: Values, mode: FormMode) => {
    const body = { ...sentFieldValues(decl, values), [RECORD_TREE_PARENT]: values[RECORD_TREE_PARENT] ?? null };
    if (mode === 'add') await http.post(api, body);
    else await http.put(api, { ...body, id: editingId! });
    changed();
  };
  // "Add" (at the top or below a row) opens with the declared initial values.
  const newValues = useMemo(() => newFieldValues(decl), [decl]);

  return (
    <div className="p8-basic-page" data-testid={testIdOf(record, 'page')}>
      <TreeRecordTable<Node>
        record={record}
        texts={texts}
        maxLevel={tree.maxLevel}
        records={records}
        columns={columns}
        toolbarRight={
          <ExcelButtons
            record={record}
            importPath={`${api}/import`}
            templateUrl={`/api/base/template/${decl.template}.xlsx`}
            exportPath={`${api}/export`}
            exportParams={() => records.tableRef.current?.getFilterParams() ?? {}}
            onImported={changed}
          />
        }
      />
      <FormDialog<Values>
        {...dialog.props}
        initialValues={dialog.props.mode === 'add' ? { ...newValues, ...dialog.props.initialValues } : dialog.props.initialValues}
        entity={decl.noun[lang]}
        width={600}
        onSubmit={submit}
        data-testid={testIdOf(record, 'dialog')}
      >
        <Row gutter={16}>
          <ParentField<Node> texts={texts} testId={testIdOf(record, 'parent')} tree={fullTree.data ?? []} editingId={editingId} maxLevel={tree.maxLevel} expandAll />
          {decl.fields.map((field) => (
            <FieldItem key={field.key} field={field} record={record} lang={lang} generated={decl.generatedCode?.field === field.key} />
          ))}
          <SortField testId={testIdOf(record, 'sort')} />
          <RemarkField />
        </Row>
      </FormDialog>
    </div>
  );
}
