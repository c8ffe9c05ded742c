-- Single-use passes for GET /v3/live?ticket=… (a browser EventSource cannot send the bearer
-- header, and a token in a URL ends up in logs and histories). Only the SHA-256 is kept; a
-- ticket is deleted when used. The stream it opens ends with the session or at access_expires_at.
CREATE TABLE live_tickets (
  ticket_hash        text PRIMARY KEY,
  user_id            text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  session_id         text NOT NULL,
  access_expires_at  timestamptz NOT NULL,
  expires_at         timestamptz NOT NULL
);
CREATE INDEX live_tickets_expires_idx ON live_tickets (expires_at);
