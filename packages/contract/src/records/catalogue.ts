import { z } from 'zod';
import { CATEGORY_MAX_LEVEL, FEE_KIND_LABELS, FeeKind } from '../basic.ts';
import { codeText, nameText, storableText } from '../text.ts';
import { attendanceGroup, calendar, clockAddress, shift } from './people.ts';
import { inspectionTemplate } from './quality.ts';
import { currency, exchangeRate } from './currency.ts';
import type { RecordFieldDecl, RecordKindDecl } from './registry.ts';

/*
 * The declared record kinds. Adding one: its declaration here, its table (migration + Drizzle schema) and
 * its line in the server's table map; its own rules, if any, as hooks beside that map. See
 * docs/architecture.md, "Adding a record screen".
 */

const name = nameText(100);
const code = codeText(50);

/** The name field of a record whose name is its key ("Unit name" / 单位名称). */
const nameField = (zh: string, en: string): RecordFieldDecl => ({
  key: 'name',
  label: { zh, en },
  kind: 'text',
  schema: name,
  required: true,
  search: true,
  sortable: true,
  width: 200,
  title: true,
  // Templates downloaded before the records were declared say just "name".
  excelTitle: { zh: '名称', en: 'Name' },
});

/** The code field of a record that has one (required unless the system generates it). */
const codeField = (zh: string, required = true): RecordFieldDecl => ({ key: 'code', label: { zh, en: 'Code' }, kind: 'text', schema: code, ...(required ? { required } : {}), search: true, sortable: true, width: 140 });

/** A record's code and name are each unique in the tenant. */
const CODE_AND_NAME_UNIQUE: RecordKindDecl['unique'] = [
  { fields: ['code'], error: 'CodeRepeat' },
  { fields: ['name'], error: 'NameRepeat' },
];

const unit: RecordKindDecl = {
  kind: 'unit',
  area: 'basic',
  entity: 'unit',
  label: { zh: '单位', en: 'Units' },
  noun: { zh: '单位', en: 'unit' },
  icon: 'NumberOutlined',
  fields: [nameField('单位名称', 'Unit')],
  unique: [{ fields: ['name'], error: 'NameRepeat' }],
  notExist: 'UnitNotExist',
  inUse: 'UnitInUseProhibitDelete',
  category: 'basic',
  template: 'unit',
  filename: { zh: '单位', en: 'units' },
};

const brand: RecordKindDecl = {
  kind: 'brand',
  area: 'basic',
  entity: 'brand',
  label: { zh: '品牌', en: 'Brands' },
  noun: { zh: '品牌', en: 'brand' },
  icon: 'TagsOutlined',
  fields: [nameField('品牌名称', 'Brand')],
  unique: [{ fields: ['name'], error: 'NameRepeat' }],
  notExist: 'BrandNotExist',
  inUse: 'BrandInUseProhibitDelete',
  category: 'basic',
  template: 'brand',
  filename: { zh: '品牌', en: 'brands' },
};

const attribute: RecordKindDecl = {
  kind: 'attribute',
  area: 'basic',
  entity: 'attribute',
  label: { zh: '属性', en: 'Attributes' },
  noun: { zh: '属性', en: 'attribute' },
  icon: 'ProfileOutlined',
  fields: [
    nameField('属性名称', 'Attribute'),
    {
      key: 'values',
      label: { zh: '属性值', en: 'Values' },
      kind: 'values',
      schema: z
        .array(storableText().trim().min(1).max(100))
        .max(200)
        .refine((list) => new Set(list).size === list.length, { message: 'NameRepeat' }),
      width: 360,
      help: { zh: '物料只能从这些值中选择；不填则物料中可自由填写', en: 'Materials choose from these values; leave empty to let materials enter any text' },
    },
  ],
  unique: [{ fields: ['name'], error: 'NameRepeat' }],
  notExist: 'AttributeNotExist',
  inUse: 'AttributeInUseProhibitDelete',
  category: 'basic',
  template: 'attribute',
  filename: { zh: '属性', en: 'attributes' },
};

const fee: RecordKindDecl = {
  kind: 'fee',
  area: 'basic',
  entity: 'fee type',
  label: { zh: '费用类型', en: 'Fee types' },
  noun: { zh: '费用类型', en: 'fee type' },
  icon: 'MoneyCollectOutlined',
  fields: [
    nameField('费用名称', 'Fee name'),
    {
      key: 'kind',
      label: { zh: '收支类型', en: 'Kind' },
      kind: 'enum',
      schema: z.enum(FeeKind, { error: 'PleaseSelectFeeKind' }),
      required: true,
      options: FeeKind.map((value) => ({ value, label: FEE_KIND_LABELS[value] })),
      initial: 'expense',
      search: true,
      sortable: true,
      width: 120,
    },
    {
      key: 'overhead',
      label: { zh: '制造费用', en: 'Production overhead' },
      kind: 'boolean',
      schema: z.boolean(),
      search: true,
      width: 120,
      help: {
        zh: '费用单上此类费用记入制造费用（5101），月末成本核算按工时或产量分摊到生产订单',
        en: 'Fee bills post this fee to manufacturing overhead (5101); the month-end cost run allocates it to production orders by hours or quantity',
      },
    },
  ],
  unique: [{ fields: ['name'], error: 'NameRepeat' }],
  notExist: 'FeeTypeNotExist',
  inUse: 'FeeTypeInUseProhibitDelete',
  category: 'basic',
  template: 'fee',
  filename: { zh: '费用类型', en: 'fee-types' },
};

const paytype: RecordKindDecl = {
  kind: 'paytype',
  area: 'basic',
  entity: 'pay type',
  label: { zh: '结算方式', en: 'Pay types' },
  noun: { zh: '结算方式', en: 'pay type' },
  icon: 'WalletOutlined',
  fields: [nameField('结算方式名称', 'Pay type name')],
  unique: [{ fields: ['name'], error: 'NameRepeat' }],
  notExist: 'PayTypeNotExist',
  inUse: 'PayTypeInUseProhibitDelete',
  category: 'basic',
  template: 'paytype',
  filename: { zh: '结算方式', en: 'pay-types' },
};

/** A figure that is zero or more, up to `max`. */
const nonNegative = (max: number) => z.number().finite({ message: 'AmountOutOfRange' }).min(0, { message: 'NumberMustNotBeNegative' }).max(max, { message: 'AmountOutOfRange' });

/**
 * Processes (工序): the steps a routing is made of. Piece rate: what a worker earns per good piece of the
 * step (piece-rate wages); standard hours: the time one piece is planned to take (capacity and labour cost).
 */
const process = {
  kind: 'process',
  area: 'basic',
  entity: 'process',
  label: { zh: '工序', en: 'Processes' },
  noun: { zh: '工序', en: 'process' },
  icon: 'ApartmentOutlined',
  fields: [
    // Not required: left empty, it is generated (generatedCode below).
    codeField('工序编码', false),
    nameField('工序名称', 'Process'),
    {
      key: 'pieceRate',
      label: { zh: '计件单价', en: 'Piece rate' },
      kind: 'amount',
      schema: nonNegative(1e9),
      sortable: true,
      width: 120,
      help: { zh: '每完成一件合格品的计件工资', en: 'Wage per good piece finished at this step' },
    },
    {
      key: 'standardHours',
      label: { zh: '标准工时', en: 'Standard hours' },
      kind: 'quantity',
      schema: nonNegative(1e6),
      sortable: true,
      width: 130,
      help: { zh: '完成一件计划耗用的小时数', en: 'Hours one piece is planned to take' },
    },
    {
      key: 'needsInspection',
      label: { zh: '需要检验', en: 'Needs inspection' },
      kind: 'boolean',
      schema: z.boolean(),
      search: true,
      width: 110,
      help: { zh: '本工序的产出须经工序检验合格，下道工序才能接收', en: "The step's output must pass a process inspection before the next step takes it" },
    },
  ],
  unique: CODE_AND_NAME_UNIQUE,
  notExist: 'ProcessNotExist',
  inUse: 'ProcessInUseProhibitDelete',
  category: 'basic',
  template: 'process',
  filename: { zh: '工序', en: 'processes' },
  // 工序 GX: the pinyin initials, as the other generated codes' default prefixes.
  generatedCode: { field: 'code', prefix: 'GX' },
} as const satisfies RecordKindDecl;

const recordId = z.number().int().positive();

/**
 * Work teams (班组): the crews of a workshop that take production orders and report processes, each with its
 * leader (a staff member), the department it belongs to, and its members with their shares: a step reported
 * by the team without a worker pays its piece wages to the members in proportion to their shares.
 */
const team: RecordKindDecl = {
  kind: 'team',
  area: 'basic',
  entity: 'team',
  label: { zh: '班组', en: 'Work teams' },
  noun: { zh: '班组', en: 'work team' },
  icon: 'TeamOutlined',
  fields: [
    codeField('班组编码'),
    nameField('班组名称', 'Work team'),
    { key: 'leaderId', label: { zh: '班组长', en: 'Leader' }, kind: 'record', ref: 'staff', schema: recordId, search: true, width: 140 },
    { key: 'deptId', label: { zh: '所属部门', en: 'Department' }, kind: 'record', ref: 'department', schema: recordId, search: true, width: 160 },
  ],
  lines: {
    key: 'members',
    label: { zh: '班组成员', en: 'Members' },
    min: 0,
    tooFew: 'TeamHasNoMembers',
    max: 200,
    distinct: { field: 'staffId', refusal: 'TeamMemberRepeat' },
    summaryJoin: ', ',
    fields: [
      { key: 'staffId', label: { zh: '员工', en: 'Staff member' }, kind: 'record', ref: 'staff', schema: recordId, required: true, width: 180 },
      {
        key: 'share',
        label: { zh: '分配系数', en: 'Share' },
        kind: 'quantity',
        schema: z.number().finite({ message: 'AmountOutOfRange' }).positive({ message: 'NumberMustGreaterThanZero' }).max(1e6, { message: 'AmountOutOfRange' }),
        required: true,
        width: 120,
        help: { zh: '班组计件工资按成员的分配系数分摊', en: "The team's piece wages are shared by the members' shares" },
      },
    ],
  },
  unique: CODE_AND_NAME_UNIQUE,
  notExist: 'TeamNotExist',
  inUse: 'TeamInUseProhibitDelete',
  category: 'basic',
  template: 'team',
  filename: { zh: '班组', en: 'work teams' },
};

/** What a machine is doing: the first is a new machine's. */
const EQUIPMENT_STATUS = [
  { value: 'idle', label: { zh: '空闲', en: 'Idle' } },
  { value: 'running', label: { zh: '运行', en: 'Running' } },
  { value: 'maintenance', label: { zh: '维修保养', en: 'Under maintenance' } },
  { value: 'scrapped', label: { zh: '报废', en: 'Scrapped' } },
] as const;

/**
 * Equipment (设备): the machines of the workshop, each kept by a work team, with its status and its maintenance
 * plan: every N days and / or every N hours of use (0: not by that measure). Maintenance work orders are generated
 * from the plan (production's equipment maintenance bills).
 */
const equipment: RecordKindDecl = {
  kind: 'equipment',
  area: 'basic',
  entity: 'equipment',
  label: { zh: '设备', en: 'Equipment' },
  noun: { zh: '设备', en: 'machine' },
  icon: 'ToolOutlined',
  fields: [
    codeField('设备编码'),
    nameField('设备名称', 'Machine'),
    { key: 'model', label: { zh: '规格型号', en: 'Model' }, kind: 'text', schema: storableText().trim().max(100), search: true, width: 160 },
    { key: 'teamId', label: { zh: '使用班组', en: 'Work team' }, kind: 'record', ref: 'team', schema: recordId, search: true, width: 140 },
    {
      key: 'status',
      label: { zh: '状态', en: 'Status' },
      kind: 'enum',
      options: EQUIPMENT_STATUS,
      schema: z.enum(EQUIPMENT_STATUS.map((o) => o.value) as ['idle', 'running', 'maintenance', 'scrapped'], { message: 'ParamError' }),
      required: true,
      initial: 'idle',
      search: true,
      width: 110,
    },
    {
      key: 'maintenanceDays',
      label: { zh: '保养周期(天)', en: 'Maintenance every (days)' },
      kind: 'number',
      schema: z.number().int({ message: 'MaintenanceDaysOutOfRange' }).min(0, { message: 'MaintenanceDaysOutOfRange' }).max(3650, { message: 'MaintenanceDaysOutOfRange' }),
      sortable: true,
      width: 150,
      help: { zh: '每隔多少天保养一次，0 表示不按天计划', en: 'Days between maintenances; 0 for no plan by days' },
    },
    {
      key: 'maintenanceHours',
      label: { zh: '保养周期(运行小时)', en: 'Maintenance every (hours of use)' },
      kind: 'number',
      schema: z.number().int({ message: 'MaintenanceHoursOutOfRange' }).min(0, { message: 'MaintenanceHoursOutOfRange' }).max(100000, { message: 'MaintenanceHoursOutOfRange' }),
      sortable: true,
      width: 170,
      help: {
        zh: '工序汇报在本设备上累计的工时达到多少小时保养一次，0 表示不按工时计划',
        en: 'Hours reported on the machine by process reports between maintenances; 0 for no plan by hours',
      },
    },
  ],
  unique: CODE_AND_NAME_UNIQUE,
  notExist: 'EquipmentNotExist',
  inUse: 'EquipmentInUseProhibitDelete',
  category: 'basic',
  template: 'equipment',
  filename: { zh: '设备', en: 'equipment' },
};

/**
 * Routings (工艺路线): the processes a product goes through, in order. A BOM or a production order names the
 * routing its product is made by. A step may name the work team that does it, and its own standard hours and
 * piece rate where they differ from the process's (left empty: the process's own).
 */
const routing = {
  kind: 'routing',
  area: 'basic',
  entity: 'routing',
  label: { zh: '工艺路线', en: 'Routings' },
  noun: { zh: '工艺路线', en: 'routing' },
  icon: 'NodeIndexOutlined',
  fields: [
    codeField('工艺路线编码', false),
    nameField('工艺路线名称', 'Routing'),
    { key: 'description', label: { zh: '说明', en: 'Description' }, kind: 'textarea', schema: storableText().trim().max(500), width: 240 },
  ],
  lines: {
    key: 'steps',
    label: { zh: '工序', en: 'Steps' },
    min: 1,
    tooFew: 'RoutingStepsEmpty',
    max: 100,
    fields: [
      { key: 'processId', label: { zh: '工序', en: 'Process' }, kind: 'record', ref: 'process', schema: recordId, required: true, width: 180 },
      { key: 'teamId', label: { zh: '班组', en: 'Work team' }, kind: 'record', ref: 'team', schema: recordId, width: 160 },
      {
        key: 'standardHours',
        label: { zh: '标准工时', en: 'Standard hours' },
        kind: 'quantity',
        schema: nonNegative(1e6),
        width: 120,
        help: { zh: '不填则取工序的标准工时', en: "Left empty: the process's own" },
      },
      { key: 'pieceRate', label: { zh: '计件单价', en: 'Piece rate' }, kind: 'amount', schema: nonNegative(1e9), width: 120, help: { zh: '不填则取工序的计件单价', en: "Left empty: the process's own" } },
    ],
  },
  unique: CODE_AND_NAME_UNIQUE,
  notExist: 'RoutingNotExist',
  inUse: 'RoutingInUseProhibitDelete',
  category: 'basic',
  template: 'routing',
  filename: { zh: '工艺路线', en: 'routings' },
  // 工艺路线 GYLX: the pinyin initials.
  generatedCode: { field: 'code', prefix: 'GYLX' },
} as const satisfies RecordKindDecl;

/**
 * Material categories (物料分类): a tree of at most three levels that materials are filed under. Names are
 * unique among the categories of one parent; a category with sub-categories or materials is not deleted.
 */
const category: RecordKindDecl = {
  kind: 'category',
  area: 'basic',
  entity: 'category',
  label: { zh: '物料分类', en: 'Categories' },
  noun: { zh: '物料分类', en: 'category' },
  icon: 'ClusterOutlined',
  fields: [{ ...nameField('分类名称', 'Category'), width: 280, excelTitle: { zh: '分类名称', en: 'Name' } }],
  tree: {
    maxLevel: CATEGORY_MAX_LEVEL,
    tooDeep: 'CategoryMaxThreeLevels',
    hasChildren: 'CategoryHasChildrenProhibitDelete',
    parentLabel: { zh: '上级分类', en: 'Parent category' },
    parentTip: { zh: '分类最多三级', en: 'Categories allow at most three levels' },
    parentPlaceholder: { zh: '不选则为一级分类', en: 'None: a top-level category' },
    addChild: { zh: '添加下级', en: 'Add sub-category' },
    maxLevelTip: { zh: '分类最多 {{max}} 级，不能再添加下级', en: 'Categories allow at most {{max}} levels; no sub-category can be added here' },
    hasChildrenTip: { zh: '请先删除下级分类', en: 'Delete its sub-categories first' },
    pathLabel: { zh: '分类路径', en: 'Path' },
  },
  unique: [{ fields: ['parentId', 'name'], error: 'NameRepeat' }],
  notExist: 'CategoryNotExist',
  inUse: 'CategoryInUseProhibitDelete',
  category: 'basic',
  template: 'category',
  filename: { zh: '物料分类', en: 'categories' },
};

/** Every declared record kind, in the menu's order within its area (the menu template may place one by hand). */
const DECLARED = [brand, attribute, fee, paytype, unit, process, routing, team, equipment, category, calendar, shift, attendanceGroup, clockAddress, inspectionTemplate, currency, exchangeRate] as const;
export const RECORD_KINDS: readonly RecordKindDecl[] = DECLARED;

/**
 * The declared kinds that take generated codes, and their union (from the declarations: a kind declared
 * `as const satisfies RecordKindDecl` with `generatedCode` joins it) — the tenant config's code kinds.
 */
export type GeneratedCodeRecordKind = Extract<(typeof DECLARED)[number], { generatedCode: object }>['kind'];
export const GENERATED_CODE_RECORD_KINDS = RECORD_KINDS.filter((decl) => decl.generatedCode) as ReadonlyArray<RecordKindDecl & { kind: GeneratedCodeRecordKind; generatedCode: NonNullable<RecordKindDecl['generatedCode']> }>;

export function recordKind(kind: string): RecordKindDecl | undefined {
  return RECORD_KINDS.find((d) => d.kind === kind);
}

/** The record kind a menu's screen (`basic_unit`, or its component path `basic/unit/index`) shows. */
export function recordKindByScreen(screen: string): RecordKindDecl | undefined {
  const clean = screen.replace(/\/index$/, '').replace('/', '_');
  return RECORD_KINDS.find((d) => `${d.area}_${d.kind}` === clean);
}
