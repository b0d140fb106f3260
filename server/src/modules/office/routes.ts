import type { FastifyInstance } from 'fastify';
import { messageRoutes } from './messages.ts';
import { printerRoutes } from './printers.ts';
import { verifyRuleRoutes } from './verify-rules.ts';

/** Office screens of the system area: messages, cloud printers and joint review rules. */
export async function officeRoutes(app: FastifyInstance) {
  await messageRoutes(app);
  await printerRoutes(app);
  await verifyRuleRoutes(app);
}
