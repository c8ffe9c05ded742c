-- A family member's choice to be told of a watched wearer's EMERGENCY and CRITICAL alerts (issue 34):
-- one row per (family member, wearer) that opted in, with the channel (their own phone by SMS, or their
-- mail); no row: not told. It hangs on the family link itself, so unlinking removes it with the link.
CREATE TABLE family_notice_preferences (
  user_id          text NOT NULL,
  wearer_id        text NOT NULL,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  channel          text NOT NULL CHECK (channel IN ('SMS','EMAIL')),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, wearer_id),
  FOREIGN KEY (user_id, wearer_id) REFERENCES user_links (user_id, wearer_id) ON DELETE CASCADE
);
CREATE INDEX family_notice_preferences_wearer_idx ON family_notice_preferences (wearer_id);
