import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import type { DeptNode, MenuRow } from '@p8/contract/system';
import { useGlobalStore } from '../../../../stores/global.ts';
import { useDeptTree } from '../../../../components/Pickers/api/get-dept-tree.ts';
import { walkTree } from '../../../../components/Tree/tree-utils.ts';
import { useMenuTree } from '../../../../components/Pickers/api/get-menu-tree.ts';
import { useRoleOptions } from '../../../../components/Pickers/api/get-roles.ts';
import { addressesText, plainText, type FormatValue } from './audit-detail.ts';
import { fieldLabel } from './audit-labels.ts';

/** The screen label of an entity's field, in the current language (see audit-labels.ts). */
export function useFieldLabel(): (entity: string) => (field: string) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (entity: string) => (field: string) => {
      // A declared record kind names its fields in its declaration, as its screen does.
      const declared = RECORD_KINDS.find((d) => d.entity === entity)?.fields.find((f) => f.key === field);
      if (declared) return i18n.language === 'en' ? declared.label.en : declared.label.zh;
      return fieldLabel(entity, field, (key) => {
        if (!i18n.exists(key)) return undefined;
        const text: unknown = t(key, { returnObjects: true });
        return typeof text === 'string' ? text : undefined;
      });
    },
    [t, i18n],
  );
}

const SCOPE_KEY: Record<string, string> = { All: 'scopeAll', Custom: 'scopeCustom', Dept: 'scopeDept', Self: 'scopeSelf' };
const SEX_KEY: Record<string, string> = { 0: 'sexUnknown', 1: 'sexMale', 2: 'sexFemale' };

/**
 * How an audit entry's values read: department, role and menu ids as their names (an id no longer
 * known stays `#id`), data scopes, menu types and genders as words, booleans as yes / no.
 */
export function useAuditFormat(): (entity: string) => FormatValue {
  const { t } = useTranslation();
  const language = useGlobalStore((s) => s.language);
  const depts = useDeptTree();
  const menus = useMenuTree();
  const roles = useRoleOptions();

  const deptNames = useMemo(() => {
    const names = new Map<number, string>();
    walkTree<DeptNode>(depts.data ?? [], (d) => names.set(d.id, d.name));
    return names;
  }, [depts.data]);
  const menuNames = useMemo(() => {
    const names = new Map<number, string>();
    walkTree<MenuRow>(menus.data ?? [], (m) => names.set(m.id, language === 'en' ? m.metaTitleEn || m.metaTitle : m.metaTitle));
    return names;
  }, [menus.data, language]);
  const roleNames = useMemo(() => new Map((roles.data ?? []).map((r) => [r.id, r.roleName])), [roles.data]);

  return useCallback(
    (entity: string): FormatValue =>
      (field, value) => {
        const yes = t('system.common.yes');
        const no = t('system.common.no');
        const named = (names: Map<number, string>) => {
          const one = (id: unknown) => names.get(Number(id)) ?? `#${String(id)}`;
          if (Array.isArray(value)) return value.length ? value.map(one).join(', ') : '—';
          return value === null || value === undefined || value === '' ? '—' : one(value);
        };
        if (field === 'dataScope' && typeof value === 'string' && SCOPE_KEY[value]) return t(`system.role.${SCOPE_KEY[value]}`);
        if (field === 'menuType' && typeof value === 'string') return t(`system.menu.type${value}`, { defaultValue: value });
        if (field === 'sex' && SEX_KEY[String(value)]) return t(`system.staff.${SEX_KEY[String(value)]}`);
        if (field === 'deptId' || field === 'deptIds') return named(deptNames);
        if (field === 'roleIds') return named(roleNames);
        // A copied role names its source(s).
        if (field === 'from' && entity === 'role' && (typeof value === 'number' || Array.isArray(value))) return named(roleNames);
        if (field === 'parentId') return entity === 'menu' ? named(menuNames) : entity === 'dept' ? named(deptNames) : plainText(value, yes, no);
        // A partner's addresses: each by its region's names, labelled as the address table labels them.
        if (field === 'addresses' && (entity === 'customer' || entity === 'supplier') && Array.isArray(value)) return addressesText(value, (part) => t(`basic-partner.partner.addresses.${part}`));
        // A role's permission change lists menu ids added and removed.
        if ((field === 'added' || field === 'removed') && entity === 'role') return named(menuNames);
        return plainText(value, yes, no);
      },
    [t, deptNames, menuNames, roleNames],
  );
}
