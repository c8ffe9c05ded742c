-- Issue 36 item 6: the care home's night round. Each row says that a staff member looked at a resident
-- during a night (dated by the day it started in the organisation's zone, docs/sleep-nights.md), when, with
-- an optional note. Rows are kept: the sheet of any past night shows who looked and when.
CREATE TABLE night_round_marks (
  id              text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  group_id        text NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
  wearer_id       text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  night           date NOT NULL,
  -- Who looked; the name as it was then stays readable if the account goes.
  marked_by       text REFERENCES users(id) ON DELETE SET NULL,
  marked_by_name  text NOT NULL,
  marked_at       timestamptz NOT NULL,
  note            text CHECK (note IS NULL OR length(note) <= 500)
);
CREATE INDEX night_round_marks_group_night_idx ON night_round_marks (group_id, night, marked_at);
