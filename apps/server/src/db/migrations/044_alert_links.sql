-- Issue 36 item 4: an alert SMS links to PUBLIC_URL/a/<code>, a short path the web resolves for a signed-in
-- user who may see the alert. The code is random and opaque: it names the alert and grants nothing (the
-- answer comes only through GET /v2/alert/link/{code} with the user's own access). Made the first time an
-- SMS of the alert is written; every later SMS of the alert (escalation, reminder) reuses it.
CREATE TABLE alert_links (
  code       text PRIMARY KEY CHECK (code ~ '^[0-9A-Za-z]{7}$'),
  alert_id   text NOT NULL UNIQUE REFERENCES alerts(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL
);
