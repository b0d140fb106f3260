import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { openConfiguredDatabase } from './db/open.ts';
import { seedDemoRecords } from './db/seed/demo-records.ts';

/** Reads the config, opens and migrates the database, seeds the demo tenants, listens. */
async function main() {
  // Milliseconds since the process started: the modules are loaded by now (tsx compiles them on the way).
  const modulesLoaded = performance.now();
  const config = loadConfig();
  const database = await openConfiguredDatabase(config, { info: (msg) => console.log(msg) });
  const databaseReady = performance.now();
  const app = await buildApp({ config, database });
  // The first demo tenant's records go through the API like a user's, so they need the built app.
  if (config.seedDemo && (await seedDemoRecords(app))) console.log('seeded the demo records of 演示制造有限公司');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // app.close() stops accepting connections and waits for in-flight requests to finish.
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out after 10 s');
      process.exit(1);
    }, 10_000);
    try {
      await app.close();
      await database.close();
    } finally {
      clearTimeout(timer);
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const cpu = process.cpuUsage();
  app.log.info(
    `P8 back-office on http://localhost:${config.port} (${database.kind}${config.databaseUrl ? '' : ` in ${config.dataDir}`}), ` +
      `serving ${seconds(performance.now())} after start (CPU ${seconds((cpu.user + cpu.system) / 1000)}): ` +
      `modules ${seconds(modulesLoaded)}, database ${seconds(databaseReady - modulesLoaded)}, app ${seconds(performance.now() - databaseReady)}`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
