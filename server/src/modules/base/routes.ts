import { agreementSaveSchema, businessHoursSaveSchema, platformConfigSchema, slotAvailabilityQuerySchema, swiperCreateSchema, swiperUpdateSchema, timeSlotCreateSchema, timeSlotUpdateSchema } from '@p8/contract/base';
import { enableSchema, idsSchema } from '@p8/contract/common';
import type { SwiperRow, TimeSlotRow } from '@p8/contract/base';
import { recordRoutes } from '../../core/record-routes.ts';
import { enabledColumn, exportTime, listExportRoute, wholeList } from '../../core/list-export.ts';
import { route, untransactedRoute, type ServerModule } from '../../core/route.ts';
import { getPlatformConfig, savePlatformConfig } from '../../core/platform-config.ts';
import { createSwiper, deleteSwipers, enableSwipers, getSwiper, listSwipers, updateSwiper } from './swiper.ts';
import { listAgreements, saveAgreement } from './agreement.ts';
import { slotAvailability } from '../../core/appointment-slots.ts';
import { createTimeSlot, deleteTimeSlots, enableTimeSlots, getTimeSettings, saveBusinessHours, updateTimeSlot } from './time.ts';

/** Base content: swiper slides, agreements, business hours and time slots, the public system config. */

const BASE = '/api/admin/base';
const tags = ['base'];

const swiperRoutes = [
  ...recordRoutes({
    area: 'base', record: 'swiper', entity: 'swiper', createSchema: swiperCreateSchema, updateSchema: swiperUpdateSchema,
    list: listSwipers, detail: getSwiper, create: createSwiper, update: updateSwiper, remove: deleteSwipers, enable: enableSwipers,
  }),
  listExportRoute<SwiperRow>({
    url: `${BASE}/swiper`, tags, noun: 'swiper slide', permission: 'base_swiper_export', list: listSwipers, filename: { zh: '轮播图', en: 'swiper' },
    columns: [
      { prop: 'title', title: { zh: '标题', en: 'Title' }, width: 24 },
      { prop: 'image', title: { zh: '图片', en: 'Image' }, width: 40 },
      { prop: 'link', title: { zh: '跳转链接', en: 'Link' }, width: 40 },
      { prop: 'sort', title: { zh: '排序', en: 'Order' } },
      enabledColumn(),
      { prop: 'createdAt', title: { zh: '创建时间', en: 'Created' }, width: 20, value: (row) => exportTime(row.createdAt) },
    ],
  }),
];


const agreementRoutes = [
  route({ method: 'GET', url: `${BASE}/agreement`, permission: 'base_agreement', tags, summary: 'The user agreement and the privacy policy', handler: (ctx) => listAgreements(ctx) }),
  route({
    method: 'PUT', url: `${BASE}/agreement`, tags, summary: 'Save an agreement (its HTML is sanitised)', permission: 'base_agreement_update', body: agreementSaveSchema,
    handler: (ctx, { body }) => saveAgreement(ctx, body),
  }),
];

const TIME = `${BASE}/time`;
const timeRoutes = [
  route({ method: 'GET', url: TIME, permission: 'base_time', tags, summary: 'Business hours of the week and the appointment time slots', handler: (ctx) => getTimeSettings(ctx) }),
  route({
    method: 'GET', url: `${TIME}/available`, picker: ['service_proxyOrder'], tags, summary: 'The bookable slots of a day with the places left', query: slotAvailabilityQuerySchema,
    handler: (ctx, { query }) => slotAvailability(ctx, query.date),
  }),
  route({
    method: 'PUT', url: `${TIME}/hours`, tags, summary: 'Save the business hours of the week', permission: 'base_time_update', body: businessHoursSaveSchema,
    handler: (ctx, { body }) => saveBusinessHours(ctx, body),
  }),
  route({ method: 'POST', url: `${TIME}/slot`, tags, summary: 'Add a time slot', permission: 'base_time_add', body: timeSlotCreateSchema, handler: (ctx, { body }) => createTimeSlot(ctx, body) }),
  route({ method: 'PUT', url: `${TIME}/slot`, tags, summary: 'Update a time slot', permission: 'base_time_update', body: timeSlotUpdateSchema, handler: (ctx, { body }) => updateTimeSlot(ctx, body) }),
  route({ method: 'DELETE', url: `${TIME}/slot`, tags, summary: 'Delete time slots', permission: 'base_time_delete', body: idsSchema, handler: (ctx, { body }) => deleteTimeSlots(ctx, body.ids) }),
  route({
    method: 'PUT', url: `${TIME}/slot/enable`, tags, summary: 'Enable or disable time slots', permission: 'base_time_enable', body: enableSchema,
    handler: (ctx, { body }) => enableTimeSlots(ctx, body.ids, body.enabled),
  }),
  // The slots of the screen, in its order (a short list read whole).
  listExportRoute<TimeSlotRow>({
    url: `${TIME}/slot`, tags, noun: 'time slot', permission: 'base_time_export', list: async (ctx) => wholeList((await getTimeSettings(ctx)).slots), filename: { zh: '预约时段', en: 'time-slots' },
    columns: [
      { prop: 'start', title: { zh: '开始', en: 'Start' } },
      { prop: 'end', title: { zh: '结束', en: 'End' } },
      { prop: 'capacity', title: { zh: '容量（单/天）', en: 'Capacity (orders a day)' }, width: 16 },
      { prop: 'sort', title: { zh: '排序', en: 'Order' } },
      enabledColumn(),
      { prop: 'createdAt', title: { zh: '创建时间', en: 'Created' }, width: 20, value: (row) => exportTime(row.createdAt) },
    ],
  }),
];

// Whoever holds the screen may read it (the screen shows it read-only); only the platform administrator saves it.
const configRoutes = [
  untransactedRoute({ method: 'GET', url: `${BASE}/config`, permission: 'base_config', tags, summary: 'The public system config and whether I may change it', handler: (caller) => getPlatformConfig(caller) }),
  untransactedRoute({
    method: 'PUT', url: `${BASE}/config`, tags, summary: 'Save the public system config (platform administrator)', permission: 'base_config_update', body: platformConfigSchema,
    handler: (caller, { body }) => savePlatformConfig(caller, body),
  }),
];

const baseRoutes = [...swiperRoutes, ...agreementRoutes, ...timeRoutes, ...configRoutes];

export const baseModule: ServerModule = { name: 'base', routes: baseRoutes };
