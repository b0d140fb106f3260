// drizzle-kit and the db connection need the whole schema as one module.
export * from './tenancy.ts';
export * from './system.ts';
export * from './auth.ts';
export * from './office.ts';
export * from './basic.ts';
export * from './mall.ts';
export * from './bills.ts';
export * from './service.ts';
export * from './finance.ts';
export * from './dashboard.ts';
export * from './outsourcing.ts';
export * from './quality.ts';
export * from './picture.ts';
export * from './tasks.ts';
