ALTER TABLE "material" ADD COLUMN "low_level_code" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Structures made before the column: each component's deepest level under the enabled default BOMs (the
-- longest path down to it; `union` keeps one row per material and level, the guard any bad data finite).
WITH RECURSIVE "edge" AS (
  SELECT b."tenant_id", b."material_id" AS "parent", l."material_id" AS "child"
  FROM "bom" b JOIN "bom_line" l ON l."tenant_id" = b."tenant_id" AND l."bom_id" = b."id"
  WHERE b."is_default" AND b."enabled"
), "depth"("tenant_id", "material_id", "code") AS (
  SELECT "tenant_id", "child", 1 FROM "edge"
  UNION
  SELECT e."tenant_id", e."child", d."code" + 1 FROM "depth" d JOIN "edge" e ON e."tenant_id" = d."tenant_id" AND e."parent" = d."material_id" WHERE d."code" < 64
)
UPDATE "material" m SET "low_level_code" = x."code"
FROM (SELECT "tenant_id", "material_id", max("code") AS "code" FROM "depth" GROUP BY "tenant_id", "material_id") x
WHERE m."tenant_id" = x."tenant_id" AND m."id" = x."material_id";
