import { idParamsSchema, idsSchema } from '@p8/contract/common';
import { BILL_TYPES } from '@p8/contract/bills/catalogue';
import { billApiPath, billButtonCode, billMenuName } from '@p8/contract/bills/registry';
import { assertBoxesVisible } from '../../bills/inspection.ts';
import {
  billPrintSchema,
  billPrintBatchSchema,
  billPrintBillsQuery,
  printTemplateCopySchema,
  printTemplateCreateSchema,
  printTemplateDefaultSchema,
  printTemplateFileSchema,
  printTemplateUpdateSchema,
} from '@p8/contract/print/template';
import { billCloudPrintSchema } from '@p8/contract/print/receipt';
import { labelPrintCode, labelPrintSchema, labelTemplateCreateSchema, labelTemplateOfKindQuery, labelTemplateUpdateSchema, type LabelKind } from '@p8/contract/print/label';
import { messageSendSchema, printerCreateSchema, printerTestSchema, printerUpdateSchema, verifyRuleCreateSchema, verifyRuleUpdateSchema } from '@p8/contract/office';
import { listQuerySchema } from '../../core/list-query.ts';
import { recordRoutes } from '../../core/record-routes.ts';
import { route, untransactedRoute, type ServerModule } from '../../core/route.ts';
import { feieProvider, yilianyunProvider } from '../../core/printer-providers.ts';
import { deleteMessages, getMessage, hideMessages, listMessages, markAllRead, markRead, sendMessage } from './messages.ts';
import { unreadCount } from '../../core/notices.ts';
import { langOf } from '../../core/excel.ts';
import { createPrinter, deletePrinters, enablePrinters, getPrinter, listPrinters, printerChoices, testPrint, updatePrinter } from './printers.ts';
import {
  cloudPrintBill,
  copyPrintTemplate,
  createPrintTemplate,
  deletePrintTemplates,
  enablePrintTemplates,
  exportPrintTemplates,
  getPrintTemplate,
  importPrintTemplates,
  listPrintTemplates,
  printTemplatesOfType,
  recordBillPrint,
  recordBillPrints,
  billsToPrint,
  setDefaultPrintTemplate,
  updatePrintTemplate,
} from './print-templates.ts';
import { createLabelTemplate, deleteLabelTemplates, labelTemplatesOfKind, recordLabelPrint, updateLabelTemplate } from './label-templates.ts';
import { createVerifyRule, deleteVerifyRules, enableVerifyRules, getVerifyRule, listVerifyRules, updateVerifyRule } from './verify-rules.ts';

/** Office screens of the system area: messages between staff, cloud printers, print templates and joint review rules. */

const MESSAGE = '/api/admin/office/message';
const messageTags = ['office'];

// Everyone reads their own inbox and outbox; sending and deleting need their button codes.
const messageRoutes = [
  route({
    method: 'GET', url: MESSAGE, openRead: 'messages', tags: messageTags, summary: 'Messages: box=inbox|outbox, isRead=true|false, title, start/end',
    query: listQuerySchema, page: true,
    // A system notice is written out in the reader's language (the web sends its own as Accept-Language).
    handler: (ctx, { query }, http) => listMessages(ctx, query, langOf(http.request)),
  }),
  route({ method: 'GET', url: `${MESSAGE}/unread/count`, openRead: 'messages', tags: messageTags, summary: 'Unread messages in my inbox', handler: (ctx) => unreadCount(ctx) }),
  route({
    method: 'GET', url: `${MESSAGE}/:id`, openRead: 'messages', tags: messageTags, summary: 'A message I sent or received', params: idParamsSchema,
    handler: (ctx, { params }, http) => getMessage(ctx, params.id, langOf(http.request)),
  }),
  route({
    method: 'POST', url: MESSAGE, tags: messageTags, summary: 'Send a message to one or many staff', permission: 'system_message_send', body: messageSendSchema,
    handler: (ctx, { body }) => sendMessage(ctx, body),
  }),
  route({
    method: 'PUT', url: `${MESSAGE}/read`, tags: messageTags, summary: 'Mark messages of my inbox read', body: idsSchema,
    handler: (ctx, { body }) => markRead(ctx, body.ids),
  }),
  route({ method: 'PUT', url: `${MESSAGE}/read/all`, tags: messageTags, summary: 'Mark my whole inbox read', handler: (ctx) => markAllRead(ctx) }),
  // The receiver's own inbox, like marking read: hidden for them, still in the sender's sent view.
  route({
    method: 'PUT', url: `${MESSAGE}/hide`, tags: messageTags, summary: 'Hide messages of my inbox (the sender still sees them)', body: idsSchema,
    handler: (ctx, { body }) => hideMessages(ctx, body.ids),
  }),
  route({
    method: 'DELETE', url: MESSAGE, tags: messageTags, summary: 'Delete messages I sent', permission: 'system_message_delete', body: idsSchema,
    handler: (ctx, { body }) => deleteMessages(ctx, body.ids),
  }),
];

const PRINTER = '/api/admin/system/printer';
const printerTags = ['printer'];

const printerRoutes = [
  ...recordRoutes({
    area: 'system', record: 'printer', entity: 'printer', createSchema: printerCreateSchema, updateSchema: printerUpdateSchema,
    list: listPrinters, detail: getPrinter, create: createPrinter, update: updatePrinter, remove: deletePrinters, enable: enablePrinters,
  }),
  untransactedRoute({
    method: 'POST', url: `${PRINTER}/test`, tags: printerTags, summary: 'Print a test page through the provider', permission: 'system_printer_add|system_printer_update', body: printerTestSchema,
    handler: (caller, { body }) => testPrint(caller, body.id),
  }),
];

const PRINT_TEMPLATE = '/api/admin/system/printTemplate';
const printTemplateTags = ['print template'];

// Print templates: the record kit's routes, then copy, default, export and import (each audited), and for
// every bill type that prints, the templates its bills print with (read with the type's screen) and the
// record of a print (its print button).
const printTemplateRoutes = [
  ...recordRoutes({
    area: 'system', record: 'printTemplate', entity: 'print-template', createSchema: printTemplateCreateSchema, updateSchema: printTemplateUpdateSchema,
    list: listPrintTemplates, detail: getPrintTemplate, create: createPrintTemplate, update: updatePrintTemplate, remove: deletePrintTemplates, enable: enablePrintTemplates,
  }),
  route({
    method: 'POST', url: `${PRINT_TEMPLATE}/copy`, tags: printTemplateTags, summary: 'Copy a template under a new name', permission: 'system_printTemplate_copy', body: printTemplateCopySchema,
    handler: (ctx, { body }) => copyPrintTemplate(ctx, body.id, body.name),
  }),
  route({
    method: 'PUT', url: `${PRINT_TEMPLATE}/default`, tags: printTemplateTags, summary: "Make a template its bill type's default", permission: 'system_printTemplate_update', body: printTemplateDefaultSchema,
    handler: (ctx, { body }) => setDefaultPrintTemplate(ctx, body.id),
  }),
  route({
    method: 'POST', url: `${PRINT_TEMPLATE}/export`, tags: printTemplateTags, summary: 'Templates as the content of a JSON file', permission: 'system_printTemplate_export', body: idsSchema,
    handler: (ctx, { body }) => exportPrintTemplates(ctx, body.ids),
  }),
  route({
    method: 'POST', url: `${PRINT_TEMPLATE}/import`, tags: printTemplateTags, summary: 'Add the templates of an exported JSON file', permission: 'system_printTemplate_import', body: printTemplateFileSchema,
    handler: (ctx, { body }) => importPrintTemplates(ctx, body),
  }),
  // Label templates (materials, locations, boxes): read by the screens that print labels, kept under the
  // print templates' buttons.
  route({
    method: 'GET', url: `${PRINT_TEMPLATE}/label`, tags: printTemplateTags, summary: 'The label templates of a kind (its starter last)',
    permission: 'basic_material|basic_location|system_printTemplate', query: labelTemplateOfKindQuery,
    handler: (ctx, { query }, http) => labelTemplatesOfKind(ctx, query.kind, langOf(http.request)),
  }),
  route({
    method: 'POST', url: `${PRINT_TEMPLATE}/label`, tags: printTemplateTags, summary: 'Add a label template', permission: 'system_printTemplate_add', body: labelTemplateCreateSchema,
    handler: (ctx, { body }) => createLabelTemplate(ctx, body),
  }),
  route({
    method: 'PUT', url: `${PRINT_TEMPLATE}/label`, tags: printTemplateTags, summary: 'Change a label template', permission: 'system_printTemplate_update', body: labelTemplateUpdateSchema,
    handler: (ctx, { body }) => updateLabelTemplate(ctx, body),
  }),
  route({
    method: 'DELETE', url: `${PRINT_TEMPLATE}/label`, tags: printTemplateTags, summary: 'Delete label templates', permission: 'system_printTemplate_delete', body: idsSchema,
    handler: (ctx, { body }) => deleteLabelTemplates(ctx, body.ids),
  }),
  // Labels printed from the list that prints them, under its `…_printLabel` button (audited).
  ...([
    ['/api/admin/basic/material/label/print', ['material', 'box']],
    ['/api/admin/basic/location/label/print', ['location']],
  ] as const).map(([url, kinds]: readonly [string, readonly LabelKind[]]) =>
    route({
      method: 'POST', url, tags: printTemplateTags, summary: `Labels printed (${kinds.join(', ')}): audited with the template and how many`, permission: labelPrintCode(kinds[0]), body: labelPrintSchema,
      handler: (ctx, { body }) => recordLabelPrint(ctx, kinds, body),
    }),
  ),
  // An inspection's box labels (the `box` kind), under the inspection's print button (quality's inspection packing).
  ...BILL_TYPES.filter((decl) => decl.packs).map((decl) =>
    route({
      method: 'POST', url: `${billApiPath(decl)}/box/label/print`, tags: printTemplateTags, area: decl.area, summary: `Labels of ${decl.label.en.toLowerCase()} boxes printed: audited with the template and how many`,
      permission: billButtonCode(decl, 'print'), body: labelPrintSchema,
      handler: (ctx, { body }) => recordLabelPrint(ctx, ['box'], body, (ids) => assertBoxesVisible(ctx, decl, ids)),
    }),
  ),
  ...BILL_TYPES.filter((decl) => decl.actions.includes('print')).flatMap((decl) => [
    route({
      method: 'GET', url: `${billApiPath(decl)}/print/templates`, tags: printTemplateTags, area: decl.area,
      summary: `The templates a ${decl.type} prints with (its starter template when it has none)`, permission: billMenuName(decl),
      handler: (ctx, _input, http) => printTemplatesOfType(ctx, decl.type, langOf(http.request)),
    }),
    route({
      method: 'POST', url: `${billApiPath(decl)}/print`, tags: printTemplateTags, area: decl.area,
      summary: `A ${decl.type} printed: its print count goes up, the audit log names the template`, permission: billButtonCode(decl, 'print'), body: billPrintSchema,
      handler: (ctx, { body }) => recordBillPrint(ctx, decl, body),
    }),
    route({
      method: 'GET', url: `${billApiPath(decl)}/print/bills`, tags: printTemplateTags, area: decl.area,
      summary: `${decl.type} bills of a selection to print as one document (ids=1,2,3; each within the caller's data scope)`, permission: billMenuName(decl), query: billPrintBillsQuery,
      handler: (ctx, { query }) => billsToPrint(ctx, decl, query.ids),
    }),
    route({
      method: 'POST', url: `${billApiPath(decl)}/print/batch`, tags: printTemplateTags, area: decl.area,
      summary: `${decl.type} bills printed as one job: each one's print count goes up, each print audited`, permission: billButtonCode(decl, 'print'), body: billPrintBatchSchema,
      handler: (ctx, { body }) => recordBillPrints(ctx, decl, body),
    }),
    route({
      method: 'GET', url: `${billApiPath(decl)}/print/printers`, tags: printTemplateTags, area: decl.area,
      summary: `The cloud printers a ${decl.type}'s receipt can go to`, permission: billMenuName(decl),
      handler: (ctx) => printerChoices(ctx),
    }),
    untransactedRoute({
      method: 'POST', url: `${billApiPath(decl)}/print/cloud`, tags: printTemplateTags, area: decl.area,
      summary: `A ${decl.type}'s receipt sent to a cloud printer: counted and audited once the provider took it`, permission: billButtonCode(decl, 'print'), body: billCloudPrintSchema,
      handler: (caller, { body }) => cloudPrintBill(caller, decl, body),
    }),
  ]),
];

// Joint review rules: which bill types need review and by whom.
const verifyRuleRoutes = recordRoutes({
  area: 'system', record: 'verify', entity: 'verify-rule', createSchema: verifyRuleCreateSchema, updateSchema: verifyRuleUpdateSchema,
  list: listVerifyRules, detail: getVerifyRule, create: createVerifyRule, update: updateVerifyRule, remove: deleteVerifyRules, enable: enableVerifyRules,
});

export const officeRoutes = [...messageRoutes, ...printerRoutes, ...printTemplateRoutes, ...verifyRuleRoutes];

export const officeModule: ServerModule = {
  name: 'office',
  routes: officeRoutes,
  // A cloud printing service whose account is configured prints for real (else it says it is not configured).
  register(registries, { config }) {
    const { feie, yilianyun } = config.printers;
    if (feie.user && feie.ukey) registries.printerProviders.register(feieProvider(feie));
    if (yilianyun.clientId && yilianyun.clientSecret) registries.printerProviders.register(yilianyunProvider(yilianyun));
  },
};
