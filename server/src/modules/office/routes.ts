import { idParamsSchema, idsSchema } from '@p8/contract/common';
import { messageSendSchema, printerCreateSchema, printerTestSchema, printerUpdateSchema, verifyRuleCreateSchema, verifyRuleUpdateSchema } from '@p8/contract/office';
import { listQuerySchema } from '../../core/list-query.ts';
import { recordRoutes } from '../../core/record-routes.ts';
import { route, untransactedRoute, type ServerModule } from '../../core/route.ts';
import { deleteMessages, getMessage, listMessages, markAllRead, markRead, sendMessage, unreadCount } from './messages.ts';
import { langOf } from '../../core/excel.ts';
import { createPrinter, deletePrinters, enablePrinters, getPrinter, listPrinters, testPrint, updatePrinter } from './printers.ts';
import { createVerifyRule, deleteVerifyRules, enableVerifyRules, getVerifyRule, listVerifyRules, updateVerifyRule } from './verify-rules.ts';

/** Office screens of the system area: messages between staff, cloud printers and joint review rules. */

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

// Joint review rules: which bill types need review and by whom.
const verifyRuleRoutes = recordRoutes({
  area: 'system', record: 'verify', entity: 'verify-rule', createSchema: verifyRuleCreateSchema, updateSchema: verifyRuleUpdateSchema,
  list: listVerifyRules, detail: getVerifyRule, create: createVerifyRule, update: updateVerifyRule, remove: deleteVerifyRules, enable: enableVerifyRules,
});

export const officeRoutes = [...messageRoutes, ...printerRoutes, ...verifyRuleRoutes];

export const officeModule: ServerModule = { name: 'office', routes: officeRoutes };
