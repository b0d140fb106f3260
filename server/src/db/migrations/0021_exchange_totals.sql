-- An exchange bill's header counts the goods exchanged once: the totals leave out the replacements (the
-- twins of its paired lines), which stood beside each taken line and doubled its quantity and amount.
-- The taking side is ExchangeOut on a purchase exchange and ExchangeIn on a sale exchange.
UPDATE "bill" AS b
SET "number" = t.number, "price_total" = t.price_total, "tax_price_total" = t.tax_price_total
FROM (
  SELECT l."tenant_id", l."bill_id",
         coalesce(sum(l."number"), 0) AS number,
         coalesce(sum(l."price_total"), 0) AS price_total,
         coalesce(sum(l."tax_price_total"), 0) AS tax_price_total
  FROM "bill_line" l
  JOIN "bill" h ON h."tenant_id" = l."tenant_id" AND h."id" = l."bill_id"
  WHERE (h."bill_type" = 'PurchaseExchange' AND l."extra"->>'exchangeType' = 'ExchangeOut')
     OR (h."bill_type" = 'SaleExchange' AND l."extra"->>'exchangeType' = 'ExchangeIn')
  GROUP BY l."tenant_id", l."bill_id"
) AS t
WHERE b."tenant_id" = t."tenant_id" AND b."id" = t."bill_id";
