ALTER TABLE "mall_order" ADD COLUMN "owner_dept_id" bigint;--> statement-breakpoint
ALTER TABLE "bill" ADD COLUMN "owner_dept_id" bigint;--> statement-breakpoint
ALTER TABLE "service_order" ADD COLUMN "owner_dept_id" bigint;--> statement-breakpoint
ALTER TABLE "fin_money_doc" ADD COLUMN "owner_dept_id" bigint;--> statement-breakpoint
CREATE INDEX "bill_owner_dept_idx" ON "bill" USING btree ("tenant_id","owner_dept_id","bill_type","bill_date","id") WHERE "bill"."owner_dept_id" is not null;--> statement-breakpoint
-- Records made before the column: the department their creator is in now (the nearest thing known).
UPDATE "bill" b SET "owner_dept_id" = a."dept_id" FROM "admin" a WHERE a."tenant_id" = b."tenant_id" AND a."id" = b."created_by" AND a."dept_id" IS NOT NULL;--> statement-breakpoint
UPDATE "mall_order" o SET "owner_dept_id" = a."dept_id" FROM "admin" a WHERE a."tenant_id" = o."tenant_id" AND a."id" = o."created_by" AND a."dept_id" IS NOT NULL;--> statement-breakpoint
UPDATE "service_order" o SET "owner_dept_id" = a."dept_id" FROM "admin" a WHERE a."tenant_id" = o."tenant_id" AND a."id" = o."created_by" AND a."dept_id" IS NOT NULL;--> statement-breakpoint
UPDATE "fin_money_doc" d SET "owner_dept_id" = a."dept_id" FROM "admin" a WHERE a."tenant_id" = d."tenant_id" AND a."id" = d."created_by" AND a."dept_id" IS NOT NULL;
