import { dashboardChartQuerySchema } from '@p8/contract/home';
import { route, type ServerModule } from '../../core/route.ts';
import { dashboardChart, dashboardStatistics } from './service.ts';

const URL = '/api/admin/home';
const tags = ['home'];

/** The home dashboard: every signed-in user may ask; each sees the sections of the menus they may open. */
export const homeModule: ServerModule = {
  name: 'home',
  routes: [
    route({ method: 'GET', url: `${URL}/statistics`, openRead: 'dashboard', tags, summary: 'Dashboard numbers, business overview and early warning', handler: (ctx) => dashboardStatistics(ctx) }),
    route({
      method: 'GET', url: `${URL}/chart`, openRead: 'dashboard', tags, summary: 'Dashboard daily series over start–end (default: the last 30 days, at most 366)',
      query: dashboardChartQuerySchema,
      handler: (ctx, { query }) => dashboardChart(ctx, query),
    }),
  ],
};
