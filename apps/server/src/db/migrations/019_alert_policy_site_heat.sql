-- Alerts a site can live with (issue 14). Written first so the engine, the site heat level and the
-- notification policy build on one schema.

-- An organisation's alert policy (packages/domain/src/alert-policy.ts): recovery window, notice
-- grouping / repeat / hourly caps, the site heat level's hysteresis. A missing row or field means
-- the defaults (resolveAlertPolicy).
CREATE TABLE organization_alert_policies (
  organization_id  text PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  policy           jsonb NOT NULL,
  updated_at       timestamptz NOT NULL,
  updated_by       text REFERENCES users(id) ON DELETE SET NULL
);

-- The heat level of each site (a gateway that measures WBGT) with the state of its hysteresis
-- (packages/domain/src/site-heat.ts), updated in the transaction that stores the gateway's
-- environment readings; level and level_since are what the console shows.
CREATE TABLE site_heat_state (
  gateway_id       text PRIMARY KEY REFERENCES gateways(id) ON DELETE CASCADE,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  level            text NOT NULL CHECK (level IN ('NORMAL','CAUTION','SEVERE','DANGER')),
  level_since      timestamptz,
  wbgt             real,
  wbgt_at          timestamptz,
  state            jsonb NOT NULL,
  updated_at       timestamptz NOT NULL
);
CREATE INDEX site_heat_state_organization_idx ON site_heat_state (organization_id);

-- Every change of a site's heat level: one event for the site, shown, notified once to the
-- group's heat-rule contacts and kept for the heat-rule report. Never rewritten.
CREATE TABLE site_heat_events (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  gateway_id       text NOT NULL REFERENCES gateways(id) ON DELETE CASCADE,
  group_id         text REFERENCES groups(id) ON DELETE SET NULL,
  from_level       text NOT NULL CHECK (from_level IN ('NORMAL','CAUTION','SEVERE','DANGER')),
  to_level         text NOT NULL CHECK (to_level IN ('NORMAL','CAUTION','SEVERE','DANGER')),
  at               timestamptz NOT NULL,
  wbgt             real,
  -- Why: the window looked at, minutes at the level, whether the MHLW heat rule applies today.
  cause            jsonb NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX site_heat_events_organization_idx ON site_heat_events (organization_id, at);
CREATE INDEX site_heat_events_group_idx ON site_heat_events (group_id, at);
CREATE INDEX site_heat_events_gateway_idx ON site_heat_events (gateway_id, at);
