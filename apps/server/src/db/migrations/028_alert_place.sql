-- Where the wearer was when an alert opened (issue 17): EMERGENCY (SOS, fall) and CRITICAL alerts
-- store the place decided by packages/domain/src/place at that moment, with the gateway's name as it
-- was, and it is never recomputed. NULL: an alert of another level, or one from before this column.
-- Shape: packages/domain/src/place/alert-place.ts (kind position | gateway | last-heard | unknown).
ALTER TABLE alerts ADD COLUMN place jsonb;
