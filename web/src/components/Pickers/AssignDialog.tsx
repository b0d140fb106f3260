import { useMemo, useState, type ReactNode } from 'react';
import { Alert, Col, Empty, Modal, Row, Spin, Tree, Typography, Button, type TreeDataNode } from 'antd';
import { ApartmentOutlined, TeamOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Assignment } from '@p8/contract/basic';
import type { DeptNode } from '@p8/contract/system';
import { deptTreeQuery } from './api/get-dept-tree.ts';
import StaffSelect from './StaffSelect.tsx';

export interface AssignDialogProps {
  open: boolean;
  onClose: () => void;
  /** Saves the assignment of the records; the dialog closes when it resolves, stays open when it rejects. */
  onSubmit: (assignment: Assignment) => Promise<unknown>;
  /** The current assignment (one record); empty for a batch, which replaces whatever the records had. */
  initial?: Assignment;
  /** Names of the staff in `initial`, when known. */
  knownStaff?: Array<{ id: number; label: string }>;
  title: ReactNode;
  'data-testid'?: string;
}

function toTreeData(nodes: DeptNode[]): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.id,
    title: (
      <span data-testid={`assign-dept-${node.id}`} style={node.enabled ? undefined : { opacity: 0.55 }}>
        {node.name}
      </span>
    ),
    children: node.children?.length ? toTreeData(node.children) : undefined,
  }));
}

/**
 * Assigns suppliers, customers, warehouses or materials to departments and staff: a
 * checkable department tree (each department on its own: sub-departments are not implied) and a staff
 * multi-select. Used by the basic-record screens when the tenant's assignment range is on.
 */
export default function AssignDialog(props: AssignDialogProps) {
  // A fresh body per opening: the choices start from `initial` every time.
  return props.open ? <AssignBody {...props} /> : null;
}

function AssignBody({ open, onClose, onSubmit, initial, knownStaff, title, ...rest }: AssignDialogProps) {
  const { t } = useTranslation(undefined, { keyPrefix: 'basic-partner' });
  const depts = useQuery(deptTreeQuery);
  const treeData = useMemo(() => toTreeData(depts.data ?? []), [depts.data]);
  const [deptIds, setDeptIds] = useState<number[]>(initial?.deptIds ?? []);
  const [adminIds, setAdminIds] = useState<number[]>(initial?.adminIds ?? []);
  const [saving, setSaving] = useState(false);
  const testId = rest['data-testid'] ?? 'assign-dialog';

  const save = async () => {
    setSaving(true);
    try {
      await onSubmit({ deptIds, adminIds });
      onClose();
    } catch {
      /* shown by the HTTP client; keep the choices */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      width={760}
      onCancel={saving ? undefined : onClose}
      mask={{ closable: false }}
      destroyOnHidden
      modalRender={(node) => <div data-testid={testId}>{node}</div>}
      footer={
        <>
          <Typography.Text type="secondary" style={{ float: 'left', lineHeight: '32px' }} data-testid={`${testId}-summary`}>
            {t('assign.summary', { count: deptIds.length, staff: adminIds.length })}
          </Typography.Text>
          <Button onClick={onClose} disabled={saving} data-testid={`${testId}-cancel`}>
            {t('picker.cancel')}
          </Button>
          <Button type="primary" loading={saving} onClick={save} data-testid={`${testId}-submit`}>
            {t('picker.ok')}
          </Button>
        </>
      }
    >
      <Alert type="info" showIcon title={t('assign.rangeTip')} description={t('assign.replaceTip')} style={{ marginBottom: 16 }} />
      <Row gutter={16}>
        <Col xs={24} md={11}>
          <div className="p8-assign-panel">
            <Typography.Text strong>
              <ApartmentOutlined /> {t('assign.depts')}
            </Typography.Text>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '4px 0 8px' }}>
              {t('assign.deptTip')}
            </Typography.Paragraph>
            <div style={{ maxHeight: 320, overflow: 'auto', border: '1px solid var(--ant-color-border-secondary, #f0f0f0)', borderRadius: 6, padding: 8 }}>
              {depts.isPending ? (
                <Spin />
              ) : treeData.length ? (
                <Tree
                  checkable
                  checkStrictly
                  selectable={false}
                  defaultExpandAll
                  treeData={treeData}
                  checkedKeys={deptIds}
                  onCheck={(checked) => setDeptIds((Array.isArray(checked) ? checked : checked.checked).map(Number))}
                  data-testid={`${testId}-depts`}
                />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('assign.noDepts')} />
              )}
            </div>
          </div>
        </Col>
        <Col xs={24} md={13}>
          <div className="p8-assign-panel">
            <Typography.Text strong>
              <TeamOutlined /> {t('assign.staff')}
            </Typography.Text>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '4px 0 8px' }}>
              {t('assign.staffTip')}
            </Typography.Paragraph>
            <StaffSelect mode="multiple" value={adminIds} onChange={setAdminIds} known={knownStaff} placeholder={t('assign.staffPlaceholder')} data-testid={`${testId}-staff`} />
          </div>
        </Col>
      </Row>
    </Modal>
  );
}
