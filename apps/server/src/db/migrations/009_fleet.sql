-- The fleet: pairing, bracelet configuration sent to gateways, and who wore a bracelet when.

-- linked_at: when the bracelet was last linked to a gateway (the pairing modal); paired_at: when that
-- gateway first reported it afterwards (a pairing event or a reading). NULL paired_at = pairing pending.
ALTER TABLE bracelets ADD COLUMN linked_at timestamptz;
ALTER TABLE bracelets ADD COLUMN paired_at timestamptz;
-- Configuration sent to the gateway: config_version grows with each change; the gateway acknowledges
-- a version (configAcks in a batch) and applied_duty_cycle records what the bracelet runs.
ALTER TABLE bracelets ADD COLUMN config_version integer NOT NULL DEFAULT 0;
ALTER TABLE bracelets ADD COLUMN applied_config_version integer NOT NULL DEFAULT 0;
ALTER TABLE bracelets ADD COLUMN applied_duty_cycle integer;
CREATE INDEX bracelets_pending_config_idx ON bracelets (gateway_id) WHERE config_version > applied_config_version;

-- Who wore a bracelet when. Readings carry the wearer they were attributed to when stored, so a
-- bracelet handed to someone else never moves history; this table tells the story of the hand-overs.
CREATE TABLE bracelet_assignments (
  bracelet_id  text NOT NULL REFERENCES bracelets(id) ON DELETE CASCADE,
  wearer_id    text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  started_at   timestamptz NOT NULL,
  ended_at     timestamptz,
  PRIMARY KEY (bracelet_id, started_at)
);
CREATE INDEX bracelet_assignments_wearer_idx ON bracelet_assignments (wearer_id, started_at);
-- Bracelets already worn before this migration: worn since they were created.
INSERT INTO bracelet_assignments (bracelet_id, wearer_id, started_at)
  SELECT id, wearer_id, created_at FROM bracelets WHERE wearer_id IS NOT NULL;
-- Bracelets already reporting are paired.
UPDATE bracelets SET paired_at = created_at WHERE gateway_id IS NOT NULL;

