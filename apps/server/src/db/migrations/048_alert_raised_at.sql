-- Issue 36 item 7: the response-time figures run from when the server raised an alert, not from when its data
-- says it happened, whichever is later. An SOS uploaded 30 minutes late by a gateway that was offline (or the
-- demo's replayed history) read as "30 minutes to notice", as if the product were slow; the gateway's silence
-- has its own alert. created_at is that moment: the engine now writes it from the app's clock (it was the
-- database's now(), the same instant in production). The figures' covering index carries it.
DROP INDEX alerts_response_times_idx;
CREATE INDEX alerts_response_times_idx ON alerts (organization_id, opened_at)
  INCLUDE (type, group_id, wearer_id, confirmed_at, first_notice_at, first_delivery_at, created_at);
