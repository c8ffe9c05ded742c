-- Where each wearer is now (issue 17, /map): the domain's place state (packages/domain/src/place,
-- `PlaceState`: the current gateway with its hysteresis, since when, and the few gateways that heard
-- the bracelet last with their smoothed signal strength), folded at ingestion in the batch's own
-- transaction (the wearer's engine_state row is locked first, so batches of one wearer take turns),
-- and the newest phone position. One small row per wearer: the map reads these, never the readings.
CREATE TABLE wearer_places (
  wearer_id        text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  state            jsonb NOT NULL,
  -- {latitude, longitude, accuracy, at (ms), gatewayId}, or NULL before any phone position.
  position         jsonb,
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wearer_places_organization_idx ON wearer_places (organization_id);

-- An organisation may show places only while the wearer has an open EMERGENCY or CRITICAL alert
-- (docs/map.md, privacy): places are still folded and stored, /map withholds the others.
ALTER TABLE organizations ADD COLUMN places_only_during_alerts boolean NOT NULL DEFAULT false;
