CREATE TABLE "login_name" (
	"name" text PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"admin_id" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_phone" (
	"phone" text PRIMARY KEY NOT NULL,
	"tenant_id" bigint NOT NULL,
	"admin_id" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session" DROP CONSTRAINT "session_token_hash_unique";--> statement-breakpoint
DROP INDEX "admin_name_uq";--> statement-breakpoint
DROP INDEX "admin_phone_uq";--> statement-breakpoint
DROP INDEX "upload_file_stored_uq";--> statement-breakpoint
ALTER TABLE "session" DROP CONSTRAINT "session_pkey";--> statement-breakpoint
ALTER TABLE "session" ADD CONSTRAINT "session_tenant_id_id_pk" PRIMARY KEY("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "session_token_uq" ON "session" USING btree ("tenant_id","token_hash");--> statement-breakpoint
CREATE INDEX "session_legacy_token_idx" ON "session" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "upload_file_stored_uq" ON "upload_file" USING btree ("tenant_id","stored_name");--> statement-breakpoint
-- The directory of sign-in names and phones (schema/auth.ts): filled from the accounts, then kept in step
-- by a trigger, in the same transaction as the account's write. SECURITY DEFINER: the app role that writes
-- accounts under RLS has no rights on the shared directory itself.
INSERT INTO "login_name" ("name", "tenant_id", "admin_id") SELECT lower("name"), "tenant_id", "id" FROM "admin";--> statement-breakpoint
INSERT INTO "login_phone" ("phone", "tenant_id", "admin_id") SELECT "phone", "tenant_id", "id" FROM "admin" WHERE "phone" IS NOT NULL;--> statement-breakpoint
CREATE FUNCTION p8_login_directory() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND (TG_OP = 'DELETE' OR lower(NEW.name) <> lower(OLD.name)) THEN
    DELETE FROM login_name WHERE name = lower(OLD.name) AND tenant_id = OLD.tenant_id AND admin_id = OLD.id;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.phone IS NOT NULL AND (TG_OP = 'DELETE' OR NEW.phone IS DISTINCT FROM OLD.phone) THEN
    DELETE FROM login_phone WHERE phone = OLD.phone AND tenant_id = OLD.tenant_id AND admin_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR lower(NEW.name) <> lower(OLD.name)) THEN
    INSERT INTO login_name (name, tenant_id, admin_id) VALUES (lower(NEW.name), NEW.tenant_id, NEW.id);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.phone IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.phone IS DISTINCT FROM OLD.phone) THEN
    INSERT INTO login_phone (phone, tenant_id, admin_id) VALUES (NEW.phone, NEW.tenant_id, NEW.id);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
REVOKE ALL ON FUNCTION p8_login_directory() FROM PUBLIC;--> statement-breakpoint
CREATE TRIGGER admin_login_directory AFTER INSERT OR DELETE OR UPDATE OF name, phone ON "admin" FOR EACH ROW EXECUTE FUNCTION p8_login_directory();
