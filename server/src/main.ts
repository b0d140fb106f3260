import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { openConfiguredDatabase, saveDemoImage } from './db/open.ts';
import { demoRecordsMissing, seedDemoRecords } from './db/seed/demo-records.ts';
import { demoPeopleMissing, seedPeopleDemo } from './db/seed/demo-people.ts';
import { demoOfficeMissing, seedOfficeDemo } from './db/seed/demo-office.ts';
import { seedMallDemo } from './db/seed/demo-mall.ts';
import { seedFinanceDemo } from './db/seed/demo-finance.ts';
import { seedServiceDemo } from './db/seed/demo-service.ts';
import { startUnpaidOrderJob } from './modules/mall/unpaid-orders.ts';
import { startAttendanceNotices } from './modules/people/attendance-notices.ts';
import { seedMessagesDemo } from './db/seed/demo-messages.ts';
import { startUploadSweep } from './core/upload-sweep.ts';
import { startJobSweep } from './core/background-jobs.ts';
import { startTaskReminders } from './modules/tasks/reminders.ts';
import { seedDemoBills } from './db/seed/demo-bills.ts';

/** Reads the config, opens and migrates the database, seeds the demo tenants, listens. */
async function main() {
  // Milliseconds since the process started: the modules are loaded by now (tsx compiles them on the way).
  const modulesLoaded = performance.now();
  const config = loadConfig();
  const opened = await openConfiguredDatabase(config, { info: (msg) => console.log(msg) });
  const { database } = opened;
  const databaseReady = performance.now();
  const app = await buildApp({ config, database });
  // The first demo tenant's records go through the API like a user's, so they need the built app.
  if (config.seedDemo && (await demoRecordsMissing(database)) && (await seedDemoRecords(app))) {
    console.log('seeded the demo records of 演示制造有限公司');
    // Its money (fund accounts, bills paid and received in part) right after, through the same API.
    if (await seedFinanceDemo(app)) console.log('seeded the demo finance of 演示制造有限公司');
  }
  // Its attendance (groups, shifts, two months of punches), through the clock-in service, into the image too.
  if (config.seedDemo && (await demoPeopleMissing(database)) && (await seedPeopleDemo(app, database, config))) console.log('seeded the demo attendance of 演示制造有限公司');
  // Its tasks in every stage (written, in review, audited, in progress with notes, completed, terminated), through the services.
  if (config.seedDemo && (await demoOfficeMissing(database)) && (await seedOfficeDemo(app, database, config))) console.log('seeded the demo tasks of 演示制造有限公司');
  // A fresh embedded database just seeded: the next fresh start of this code copies it (db/image.ts).
  await saveDemoImage(opened);

  // The demo bills and the mall's demo (hundreds of orders) are written after the server answers, in short transactions, so
  // that a first start serves at once; a shutdown waits for it (a start stopped half-way resumes it).
  let mallSeed: Promise<unknown> = Promise.resolve();
  // Mall orders left unpaid past the tenant's time are cancelled, their stock given back (every minute).
  const stopUnpaidOrderJob = startUnpaidOrderJob({ database, config, registries: app.registries, access: app.access, log: app.log });
  // Yesterday's attendance anomalies told to each person and their department's leader (two minutes after start, then hourly; once per person-day).
  const stopAttendanceNotices = startAttendanceNotices({ database, config, registries: app.registries, access: app.access, log: app.log });
  // Uploads no record names, older than UPLOAD_ORPHAN_HOURS, are removed (a minute after start, then daily).
  const stopUploadSweep = startUploadSweep({ database, config, log: app.log });
  // Finished background jobs older than JOB_RETENTION_DAYS are removed with their files (a minute after start, then hourly).
  const stopJobSweep = startJobSweep({ database, config, log: app.log });
  // Tasks' reminders before their due date and once overdue, to each assignee (a minute after start, then every ten minutes).
  const stopTaskReminders = startTaskReminders({ database, config, registries: app.registries, access: app.access, log: app.log });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // SIGTERM (a deployment's stop): the health check fails first and, when a balancer checks it, the process
    // keeps serving until the balancer has taken it out of its rotation (core/lifecycle.ts). Ctrl-C stops at once.
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out');
      process.exit(1);
    }, drainMs + 10_000);
    try {
      if (await app.lifecycle.drain(drainMs)) app.log.info({ signal, drainMs }, 'drained: the balancer has stopped sending requests');
      app.log.info({ signal }, 'shutting down: finishing in-flight requests');
      await mallSeed;
      // The running background jobs roll back and go back to the queue for another process (app.close would too).
      await app.jobs.stop();
      await stopUnpaidOrderJob();
      await stopAttendanceNotices();
      await stopUploadSweep();
      await stopJobSweep();
      await stopTaskReminders();
      // app.close() stops accepting connections, closes the idle kept-alive ones, waits for in-flight requests
      // to finish (each answered with Connection: close) and runs the onClose hooks.
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
  // Background jobs (imports, exports): the embedded database's previous process is gone, so what it held is free now.
  if (database.kind === 'pglite') await app.jobs.releaseOrphans();
  app.jobs.start();
  if (config.seedDemo) {
    // The bills first (a few seconds: stock is real by the first sign-in), then the mall and the service orders.
    mallSeed = seedDemoBills(app, database, config)
      .then(
        (seeded) => seeded && app.log.info('seeded the demo bills of 演示制造有限公司'),
        (error: unknown) => app.log.error({ err: error }, 'the demo bills could not be seeded'),
      )
      .then(() => seedMallDemo(app, database, config))
      .then(
        (seeded) => seeded && app.log.info('seeded the mall of 演示制造有限公司'),
        (error: unknown) => app.log.error({ err: error }, 'the mall demo could not be seeded'),
      )
      .then(() => seedServiceDemo(app, database, config))
      .then(
        (seeded) => seeded && app.log.info('seeded the base content and service orders of 演示制造有限公司'),
        (error: unknown) => app.log.error({ err: error }, 'the service demo could not be seeded'),
      )
      // Last: the administrator's unread messages of several kinds (new orders told from now on).
      .then(() => seedMessagesDemo(app, database, config))
      .then(
        (seeded) => seeded && app.log.info('seeded the messages of 演示制造有限公司'),
        (error: unknown) => app.log.error({ err: error }, 'the message demo could not be seeded'),
      );
  }
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
