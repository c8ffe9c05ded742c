-- Where a reading or event was heard (issues 16 and 17): the gateway that sent it, how strongly it
-- heard the bracelet, and a phone gateway's position. The gateway and signal strength are on
-- every reading (the place of a person is decided from them, packages/domain/src/place); positions
-- are sparse (a phone sends one at most once a minute, and with every SOS and fall), so they get a
-- table of their own instead of four mostly empty columns on the readings.
ALTER TABLE readings ADD COLUMN gateway_id text;
ALTER TABLE readings ADD COLUMN rssi smallint CHECK (rssi BETWEEN -130 AND 20);

ALTER TABLE device_events ADD COLUMN gateway_id text;
ALTER TABLE device_events ADD COLUMN latitude double precision CHECK (latitude BETWEEN -90 AND 90);
ALTER TABLE device_events ADD COLUMN longitude double precision CHECK (longitude BETWEEN -180 AND 180);
ALTER TABLE device_events ADD COLUMN location_accuracy real CHECK (location_accuracy BETWEEN 0 AND 10000);
ALTER TABLE device_events ADD COLUMN location_at timestamptz;

-- A wearer's positions as their phone gateway reported them, kept as long as the readings.
CREATE TABLE wearer_positions (
  wearer_id        text NOT NULL,
  at               timestamptz NOT NULL,
  organization_id  text NOT NULL,
  bracelet_id      text NOT NULL,
  gateway_id       text NOT NULL,
  latitude         double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude        double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  accuracy         real NOT NULL CHECK (accuracy BETWEEN 0 AND 10000),
  PRIMARY KEY (wearer_id, at)
);
CREATE INDEX wearer_positions_at_idx ON wearer_positions (at);
