import { idParamsSchema } from '@p8/contract/common';
import {
  serviceMessageQuerySchema,
  serviceMessageSendSchema,
  serviceOrderAuditSchema,
  serviceOrderCancelSchema,
  serviceOrderCreateSchema,
  serviceOrderDispatchSchema,
  serviceOrderStepSchema,
  serviceStaffCreateSchema,
  serviceStaffUpdateSchema,
  type ServiceOrderCreate,
  type ServiceOrderSource,
} from '@p8/contract/service';
import { listExportRoute } from '../../core/list-export.ts';
import { listQuerySchema } from '../../core/list-query.ts';
import { route, untransactedRoute, type ModuleDeps, type RequestCaller, type RouteDeclaration, type ServerModule } from '../../core/route.ts';
import type { Http } from '../../core/route.ts';
import { readPlatformConfig } from '../../core/platform-config.ts';
import { serviceDashboard } from './dashboard.ts';
import { serviceOrderExportColumns } from './exports.ts';
import { listOrderMessages, sendOrderMessage } from './messages.ts';
import {
  auditDispatch,
  cancelOrder,
  completeOrder,
  countOrders,
  createOrder,
  dispatchableStaff,
  dispatchOrder,
  getOrder,
  listOrders,
  startOrder,
  type OrderScope,
} from './orders.ts';
import { createServiceStaff, deleteServiceStaff, enableServiceStaff, getServiceStaff, listServiceStaff, updateServiceStaff } from './staff.ts';
import { recordRoutes } from '../../core/record-routes.ts';

/** Service orders: all orders, mine (dispatched to me), proxy orders, and the chat on an order. */

const SERVICE = '/api/admin/service';
const tags = ['service'];

/** The list, its export, its status counts and one order, as a scope shows them (`screen`: its menu name). */
function readRoutes(url: string, scope: OrderScope, noun: string, screen: string): RouteDeclaration[] {
  return [
    route({ method: 'GET', url, permission: screen, tags, summary: `${noun}, paged: status (one or a comma list), orderNo, customer, start/end…`, query: listQuerySchema, page: true, handler: (ctx, { query }) => listOrders(ctx, query, scope) }),
    listExportRoute({
      url, tags, noun: noun.toLowerCase(), permission: `${screen}_export`, list: (ctx, query) => listOrders(ctx, query, scope), columns: serviceOrderExportColumns,
      filename: { zh: '服务订单', en: 'service-orders' },
    }),
    route({ method: 'GET', url: `${url}/counts`, permission: screen, tags, summary: `${noun} per status (the status tabs)`, query: listQuerySchema, handler: (ctx, { query }) => countOrders(ctx, query, scope) }),
    route({ method: 'GET', url: `${url}/:id`, permission: screen, tags, summary: `One of the ${noun.toLowerCase()} with its timeline`, params: idParamsSchema, handler: (ctx, { params }) => getOrder(ctx, params.id, scope) }),
  ];
}

/**
 * Places an order and tells staff of it: the office messages in the order's transaction, the SMS notices
 * after it committed (an SMS provider must not hold a connection, and a failed SMS does not undo the order).
 */
export async function placeOrder(caller: RequestCaller, deps: Pick<ModuleDeps, 'sms'>, body: ServiceOrderCreate, source: ServiceOrderSource) {
  // Outside the transaction: the public config is read on the owner connection.
  const { openAppointment } = await readPlatformConfig(caller.database, caller.config);
  const { order, notice } = await caller.transaction((ctx) => createOrder(ctx, body, { source, appointmentsOpen: openAppointment }));
  for (const phone of notice.smsPhones) {
    await deps.sms.notify(phone, 'newServiceOrder', { orderNo: notice.orderNo, service: notice.serviceName }).catch((error: unknown) => {
      caller.log.warn({ err: error, orderNo: notice.orderNo }, 'new-order SMS notice failed');
    });
  }
  return order;
}

/** Sends a chat message and, once it is committed, delivers it live. */
async function sendMessage(caller: RequestCaller, http: Http, body: Parameters<typeof sendOrderMessage>[1]) {
  const message = await caller.transaction((ctx) => sendOrderMessage(ctx, body));
  await http.request.server.chat.publish(caller.tenantId, message).catch((error: unknown) => {
    // Stored: the screens read it on their next subscribe or resync.
    caller.log.warn({ err: error }, 'chat message not published');
  });
  return message;
}

const ORDER = `${SERVICE}/order`;
const MY = `${SERVICE}/myOrder`;
const PROXY = `${SERVICE}/proxyOrder`;
const MESSAGE = `${SERVICE}/message`;

function serviceRoutes(deps: Pick<ModuleDeps, 'sms'>): RouteDeclaration[] {
  return [
    // Service staff (the screen service_staff): who orders are dispatched to, with skills, areas and load.
    ...recordRoutes({
      area: 'service', record: 'staff', path: 'service/technician', entity: 'serviceStaff', createSchema: serviceStaffCreateSchema, updateSchema: serviceStaffUpdateSchema,
      list: listServiceStaff, detail: getServiceStaff, create: createServiceStaff, update: updateServiceStaff, remove: deleteServiceStaff, enable: enableServiceStaff,
    }),
    ...readRoutes(ORDER, 'all', 'Service orders', 'service_order'),
    route({ method: 'GET', url: `${SERVICE}/staff`, picker: ['service_order'], tags, summary: 'Staff an order can be dispatched to', handler: (ctx) => dispatchableStaff(ctx) }),
    route({
      method: 'PUT', url: `${ORDER}/dispatch`, tags, summary: 'Dispatch (or re-dispatch) an order to staff; auto-approved with dispatchAutoAudit', permission: 'service_order_dispatch', body: serviceOrderDispatchSchema,
      handler: (ctx, { body }) => dispatchOrder(ctx, body),
    }),
    route({
      method: 'PUT', url: `${ORDER}/audit`, tags, summary: 'Approve or refuse a dispatch', permission: 'service_order_audit', body: serviceOrderAuditSchema,
      handler: (ctx, { body }) => auditDispatch(ctx, body),
    }),
    route({
      method: 'PUT', url: `${ORDER}/cancel`, tags, summary: 'Cancel an order whose service has not started', permission: 'service_order_cancel', body: serviceOrderCancelSchema,
      handler: (ctx, { body }) => cancelOrder(ctx, body),
    }),

    ...readRoutes(MY, 'mine', 'Orders dispatched to me', 'service_myOrder'),
    route({
      method: 'PUT', url: `${MY}/start`, tags, summary: 'Start the service of an order dispatched to me', permission: 'service_myOrder_start', body: serviceOrderStepSchema,
      handler: (ctx, { body }) => startOrder(ctx, body),
    }),
    route({
      method: 'PUT', url: `${MY}/complete`, tags, summary: 'Complete the service of an order dispatched to me', permission: 'service_myOrder_complete', body: serviceOrderStepSchema,
      handler: (ctx, { body }) => completeOrder(ctx, body),
    }),

    ...readRoutes(PROXY, 'proxy', 'Proxy orders', 'service_proxyOrder'),
    untransactedRoute({
      method: 'POST', url: PROXY, tags, summary: 'Place an order for a customer (with an appointment slot when appointments are open)', permission: 'service_proxyOrder_add', body: serviceOrderCreateSchema,
      handler: (caller, { body }) => placeOrder(caller, deps, body, 'proxy'),
    }),

    route({
      method: 'GET', url: MESSAGE, permission: 'service_order|service_myOrder|service_proxyOrder', tags, summary: "An order's chat messages after afterId, oldest first", query: serviceMessageQuerySchema,
      handler: (ctx, { query }) => listOrderMessages(ctx, query),
    }),
    untransactedRoute({
      method: 'POST', url: MESSAGE, tags, summary: 'Send a chat message on an order (delivered live over /api/ws)', permission: 'service_order_message|service_myOrder_message', body: serviceMessageSendSchema,
      handler: (caller, { body }, http) => sendMessage(caller, http, body),
    }),
  ];
}

/** The service-order module; its routes send SMS notices through the app's SMS sender. */
export const serviceModule = (deps: Pick<ModuleDeps, 'sms'>): ServerModule => ({
  name: 'service',
  routes: serviceRoutes(deps),
  register: (registries) => registries.dashboard.register(serviceDashboard),
});
