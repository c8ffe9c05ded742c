-- What an organisation is (issue 35): a construction site, a care home or other. It picks the alert
-- defaults of its wearers who have no stored settings (KIND_ALERT_DEFAULTS in the domain); the
-- organisations made before keep OTHER, whose defaults are the old ones (every rule on).
ALTER TABLE organizations
  ADD COLUMN kind text NOT NULL DEFAULT 'OTHER'
    CHECK (kind IN ('CONSTRUCTION_SITE', 'CARE_HOME', 'OTHER'));
