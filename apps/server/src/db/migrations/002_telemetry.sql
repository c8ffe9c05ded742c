-- Telemetry from gateways, rollups for history charts and reports, alerts and the engine's state.
--
-- The high-volume tables (readings, rollups, environment, events) carry organization_id and
-- wearer_id but no foreign keys: an FK check per row halves ingestion throughput, and rows
-- of a deleted organisation/wearer are removed by the retention job or by the delete itself.
-- Time buckets use date_bin from a UTC origin, so they never depend on the session time zone.

-- Full-resolution bracelet readings, kept READINGS_RETENTION_DAYS (default 30).
-- (bracelet_id, at) identifies a reading: a retry or a QoS 1 redelivery is stored once.
CREATE TABLE readings (
  bracelet_id       text NOT NULL,
  at                timestamptz NOT NULL,
  wearer_id         text NOT NULL,
  organization_id   text NOT NULL,
  heart_rate        real,
  skin_temperature  real,
  worn              boolean,
  steps             integer,
  sleep_stage       smallint CHECK (sleep_stage BETWEEN 1 AND 4),
  stress_level      text CHECK (stress_level IN ('NONE','LOW','MEDIUM','HIGH','OVERLOAD')),
  battery           smallint CHECK (battery BETWEEN 0 AND 100),
  -- WBGT of the bracelet's gateway at this time (latest environment reading within 30 min).
  wbgt              real,
  PRIMARY KEY (bracelet_id, at)
);
CREATE INDEX readings_wearer_at_idx ON readings (wearer_id, at);
CREATE INDEX readings_at_idx ON readings (at);

-- A gateway's own environment sensor. Kept as long as readings.
CREATE TABLE environment_readings (
  gateway_id        text NOT NULL,
  at                timestamptz NOT NULL,
  organization_id   text NOT NULL,
  temperature       real,
  humidity          real,
  wbgt              real,
  PRIMARY KEY (gateway_id, at)
);
CREATE INDEX environment_readings_at_idx ON environment_readings (at);

-- SOS button, fall detected, worn / removed. Kept forever (they explain alerts).
CREATE TABLE device_events (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  bracelet_id       text NOT NULL,
  wearer_id         text NOT NULL,
  organization_id   text NOT NULL,
  type              text NOT NULL CHECK (type IN ('SOS','FALL','WORN','REMOVED')),
  at                timestamptz NOT NULL,
  received_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (bracelet_id, type, at)
);
CREATE INDEX device_events_wearer_at_idx ON device_events (wearer_id, at);

-- Per-minute rollup of a wearer's readings (kept 400 days): sums and counts so averages
-- stay exact when late readings arrive; "latest" columns follow latest_at.
CREATE TABLE reading_minutes (
  wearer_id         text NOT NULL,
  bucket            timestamptz NOT NULL,
  organization_id   text NOT NULL,
  reading_count     integer NOT NULL,
  hr_count          integer NOT NULL,
  hr_sum            double precision NOT NULL,
  hr_min            real,
  hr_max            real,
  temp_count        integer NOT NULL,
  temp_sum          double precision NOT NULL,
  temp_max          real,
  steps             integer NOT NULL,
  -- Readings that said worn = true / false in this minute.
  worn_count        integer NOT NULL,
  not_worn_count    integer NOT NULL,
  wbgt_max          real,
  latest_at         timestamptz NOT NULL,
  sleep_stage       smallint,
  stress_level      text,
  battery           smallint,
  PRIMARY KEY (wearer_id, bucket)
);
CREATE INDEX reading_minutes_bucket_idx ON reading_minutes (bucket);

-- Per-hour rollup (kept forever), recomputed from the minutes of each hour a batch touches.
-- worn_minutes / sleep minutes serve the monthly report; sleep_stage_minutes is
-- {"1": n, "2": n, ...} (minutes whose latest sleep stage was that code).
CREATE TABLE reading_hours (
  wearer_id         text NOT NULL,
  bucket            timestamptz NOT NULL,
  organization_id   text NOT NULL,
  reading_count     integer NOT NULL,
  hr_count          integer NOT NULL,
  hr_sum            double precision NOT NULL,
  hr_min            real,
  hr_max            real,
  temp_count        integer NOT NULL,
  temp_sum          double precision NOT NULL,
  temp_max          real,
  steps             integer NOT NULL,
  worn_minutes      integer NOT NULL,
  data_minutes      integer NOT NULL,
  wbgt_max          real,
  sleep_stage_minutes jsonb NOT NULL DEFAULT '{}',
  stress_level      text,
  latest_at         timestamptz NOT NULL,
  PRIMARY KEY (wearer_id, bucket)
);

-- The latest known values per wearer, maintained on ingest: the summary of 10,000 wearers is
-- one indexed read. Each value keeps the newest non-null one seen.
CREATE TABLE wearer_latest (
  wearer_id         text PRIMARY KEY,
  organization_id   text NOT NULL,
  bracelet_id       text,
  heart_rate        real,
  heart_rate_at     timestamptz,
  skin_temperature  real,
  worn              boolean,
  battery           smallint,
  sleep_stage       smallint,
  stress_level      text,
  -- Steps of steps_date (the organisation's local day of the latest reading).
  steps_today       integer NOT NULL DEFAULT 0,
  steps_date        date,
  wbgt              real,
  last_seen_at      timestamptz,
  updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wearer_latest_organization_idx ON wearer_latest (organization_id);

CREATE TABLE alerts (
  id                text PRIMARY KEY,
  organization_id   text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  group_id          text REFERENCES groups(id) ON DELETE SET NULL,
  wearer_id         text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  bracelet_id       text REFERENCES bracelets(id) ON DELETE SET NULL,
  type              text NOT NULL CHECK (type IN ('ADVANCED_HEATSTROKE','ADVANCED_HEATSTROKE_RISK',
                      'AWAKENING_ALERT','DETECT_FALL_DOWN','DISCONNECTION','HEART_RATE',
                      'HEART_RATE_ANOMALY_SUSTAINED','HEATSTROKE','NON_WEARING','SOS_CALL')),
  level             text NOT NULL CHECK (level IN ('CAUTION','CRITICAL','DEVICE_STATUS','EMERGENCY')),
  status            text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN','CLOSED')),
  opened_at         timestamptz NOT NULL,
  closed_at         timestamptz,
  close_reason      text CHECK (close_reason IN ('recovered','confirmed')),
  confirmed_by      text REFERENCES users(id) ON DELETE SET NULL,
  confirmed_at      timestamptz,
  cause             jsonb NOT NULL,
  notify            boolean NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'OPEN') = (closed_at IS NULL))
);
-- An alert type can be open only once per wearer.
CREATE UNIQUE INDEX alerts_one_open_idx ON alerts (wearer_id, type) WHERE status = 'OPEN';
CREATE INDEX alerts_organization_opened_idx ON alerts (organization_id, opened_at DESC);
CREATE INDEX alerts_wearer_opened_idx ON alerts (wearer_id, opened_at DESC);
CREATE INDEX alerts_open_organization_idx ON alerts (organization_id) WHERE status = 'OPEN';

-- A wearer's alert settings (partial; resolved against the defaults by age).
CREATE TABLE wearer_alert_settings (
  wearer_id   text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  settings    jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  updated_by  text REFERENCES users(id) ON DELETE SET NULL
);

-- The alert engine's state per wearer (plain JSON), saved in the same transaction as the
-- readings and alerts it came from.
CREATE TABLE engine_state (
  wearer_id        text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  state            jsonb NOT NULL,
  last_reading_at  timestamptz,
  -- Bumped on every save: a server's in-memory copy is valid only while this matches.
  version          bigint NOT NULL DEFAULT 0,
  updated_at       timestamptz NOT NULL DEFAULT now()
);
