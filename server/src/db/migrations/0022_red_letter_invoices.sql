-- A sale or purchase invoice pushed down from a refund that returns money is a red-letter invoice: its header
-- totals (quantity, amounts) are stored negative, so lists, statistics (bill_count, whose trigger follows the
-- update) and exports sum it with its sign; its lines keep the refund's quantities and prices. Invoices saved
-- before were stored positive: their totals turn negative here. The types are named as the registry declared
-- them when this was written (the invoices' sources declared `negative`).
UPDATE "bill" b SET "number" = -b."number", "price_total" = -b."price_total", "tax_price_total" = -b."tax_price_total"
WHERE b."bill_type" IN ('SaleInvoice', 'PurchaseInvoice') AND b."number" > 0
  AND EXISTS (
    SELECT 1 FROM "bill_line" l JOIN "bill" s ON s."tenant_id" = l."tenant_id" AND s."id" = l."source_bill_id"
    WHERE l."tenant_id" = b."tenant_id" AND l."bill_id" = b."id" AND s."bill_type" IN ('SaleRefund', 'PurchaseRefund')
  );
