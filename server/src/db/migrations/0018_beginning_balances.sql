-- Opening balances of partners are finance's opening-balance bills (bill type `Beginning`). A partner's
-- opening_receivable / opening_payable become read-only: the sum of its audited opening balances, moved by
-- the bills' audit and withdrawal. Values typed into the partner form before never reached the ledger (no
-- posting, no partner balance), so they start again from zero; such a tenant enters them as opening bills.
UPDATE "partner" SET "opening_receivable" = 0, "opening_payable" = 0 WHERE "opening_receivable" <> 0 OR "opening_payable" <> 0;
