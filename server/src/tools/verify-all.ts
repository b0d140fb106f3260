import { sql } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { verifyStock } from '../bills/stock.ts';
import { rows } from '../db/connection.ts';
import { openConfiguredDatabase } from '../db/open.ts';
import { withServiceContext, type Caller } from '../core/service-context.ts';
import { verifyLedger } from '../modules/finance/ledger.ts';
import { LEDGER_CHECKS } from '../modules/finance/routes.ts';

/**
 * `node --import tsx server/src/tools/verify-all.ts` (with the server's environment: DATABASE_URL…): runs the
 * stock verify and the finance verify — what POST /api/admin/stock/verify and /api/admin/finance/verify
 * answer a tenant — for every tenant of the database, without signing in. Prints one JSON line per tenant
 * with differences and a last line `verify: <n> tenants, <m> with differences`; exits 1 when any has some.
 * The backup drill (scripts/backup-drill.mjs) runs it on the restored database.
 */
async function main() {
  const config = loadConfig({ seedDemo: false });
  const { database } = await openConfiguredDatabase(config, { info: () => {} });
  const app = await buildApp({ config, database, logger: false });
  let withDifferences = 0;
  try {
    const tenants = await rows<{ id: number | string }>(database, sql`select id from tenant order by id`);
    for (const { id } of tenants) {
      const tenantId = Number(id);
      const caller: Caller = {
        tenantId,
        account: { tenantId, adminId: 0, sessionId: '' },
        config,
        registries: app.registries,
        log: app.log,
        ip: '',
        access: app.access,
      };
      const stock = await withServiceContext(database, caller, (ctx) => verifyStock(ctx.tx, tenantId));
      const finance = await withServiceContext(database, caller, (ctx) => verifyLedger(ctx, LEDGER_CHECKS));
      if (stock.length || finance.length) {
        withDifferences += 1;
        console.log(JSON.stringify({ tenantId, stock, finance }));
      }
    }
    console.log(`verify: ${tenants.length} tenants, ${withDifferences} with differences`);
  } finally {
    await app.close();
    await database.close();
  }
  process.exitCode = withDifferences ? 1 : 0;
}

await main();
