-- Loyalty program set-up in the admin (issue 21 item 3): a program can be turned off without losing its
-- rules, tiers, customers or ledger; while off, the storefront loyalty API answers as for a store without
-- a program. `platform_secret_ms` is when the platform secret was last generated (the secret itself stays
-- in clear: HS256 verification needs it).
ALTER TABLE loyalty_programs ADD COLUMN enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1));
ALTER TABLE loyalty_programs ADD COLUMN platform_secret_ms INTEGER;

-- Incentives disclosed (issue 22 item 4): reviews that already earned loyalty points say so.
UPDATE reviews SET is_incentivized = 1
 WHERE is_incentivized = 0
   AND (store_id, review_id) IN (SELECT store_id, substr(award_key, 8) FROM loyalty_transactions
                                  WHERE award_key LIKE 'review:%' AND points > 0);
