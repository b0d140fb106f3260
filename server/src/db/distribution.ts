/**
 * Where each table would live on a cluster that spreads tenants over several database nodes (Citus:
 * docs/operations.md, "Distributing by tenant"). Every table with a `tenant_id` column is a **tenant
 * table**, distributed by `tenant_id`: each of its primary keys and unique indexes leads with `tenant_id`
 * (server/test/distribution-keys.test.ts checks the live schema), so that a key is unique within a tenant's
 * rows, which all sit on one node. The tables below are **reference tables** instead — shared by every
 * tenant, copied whole to every node — each with its reason. A table that has no `tenant_id` and is not
 * listed here fails the test.
 */
export const REFERENCE_TABLES: Readonly<Record<string, string>> = {
  tenant: 'the tenants themselves (keyed by their id, which is every tenant table\'s tenant_id); read by every session check and sign-in before a tenant transaction exists',
  region: 'China\'s administrative divisions, the same for every tenant and read-only (db/regions.ts)',
  platform_config: 'the installation\'s public system config, set by the platform administrator, read before sign-in',
  captcha: 'no tenant: picture captchas and SMS codes live in the shared state (Redis) now; the table is left empty',
  login_name: 'sign-in names are unique across tenants because sign-in happens before the tenant is known; only the trigger on admin writes it (schema/auth.ts)',
  login_phone: 'sign-in phones, unique across tenants for the same reason as login_name',
  p8_schema_check: 'the hash of the migrations this database was last checked against (db/connection.ts)',
};

/**
 * Tenant tables (distributed by `tenant_id`, keys led by it) that carry no row-level-security policy,
 * because they are read on the owner connection before a request's tenant transaction exists.
 */
export const TENANT_TABLES_WITHOUT_RLS: Readonly<Record<string, string>> = {
  session: 'a bearer token is resolved to its tenant and account before any tenant transaction (core/access-cache.ts); found by (tenant_id, token_hash)',
};
