import { describe, expect, it } from 'vitest';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { RECORD_KINDS } from '@p8/contract/records/catalogue';
import { hasMenuIcon, MENU_ICON_ALIASES } from './index.tsx';

describe('menu icons', () => {
  it('resolve antd names with or without the theme suffix', () => {
    for (const name of ['HomeOutlined', 'HomeFilled', 'home', 'ContactsOutlined', 'PartitionOutlined', 'NumberOutlined']) expect(hasMenuIcon(name)).toBe(true);
  });

  it('resolve every Element Plus alias to an icon', () => {
    for (const alias of Object.keys(MENU_ICON_ALIASES)) expect(hasMenuIcon(alias), alias).toBe(true);
  });

  it("resolve every bill type's and record kind's declared icon (its menu entry shows it)", () => {
    for (const decl of BILL_TYPES) expect(hasMenuIcon(decl.icon), `${decl.type}: ${decl.icon}`).toBe(true);
    for (const decl of RECORD_KINDS) expect(hasMenuIcon(decl.icon), `${decl.kind}: ${decl.icon}`).toBe(true);
  });

  it('leave empty and unknown names without an icon', () => {
    expect(hasMenuIcon('')).toBe(false);
    expect(hasMenuIcon(null)).toBe(false);
    expect(hasMenuIcon('NoSuchIcon')).toBe(false);
  });
});
