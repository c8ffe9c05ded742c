-- Identity additions: the demo organisation flag and each organisation's time zone (schedules,
-- sleep windows and reports are in the organisation's local time). IF NOT EXISTS so that a
-- base schema that already carries these columns migrates cleanly.
ALTER TABLE organizations ADD COLUMN IF NOT EXISTS is_demo boolean NOT NULL DEFAULT false;
ALTER TABLE organizations ADD COLUMN IF NOT EXISTS time_zone text NOT NULL DEFAULT 'Asia/Tokyo';

-- The demo scope acts in the oldest organisation flagged is_demo (normally the only one).
CREATE INDEX IF NOT EXISTS organizations_demo_idx ON organizations (created_at) WHERE is_demo;

-- Sign-in looks accounts up by e-mail among the living only.
CREATE INDEX IF NOT EXISTS users_role_org_idx ON users (organization_id, role) WHERE deleted_at IS NULL;
