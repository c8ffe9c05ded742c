-- Full-resolution readings partitioned by time (decision record 0011): retention drops whole
-- partitions instead of deleting rows one by one, and each day's inserts touch small indexes.
-- Partitions are created ahead by the timer-job leader (modules/readings/partitions.ts, size
-- READINGS_PARTITION_DAYS); the DEFAULT partition takes what no partition covers: the rows that
-- existed before this migration (moved here) and anything the job has not prepared for. Its
-- rows expire by row deletes, as before.
ALTER TABLE readings RENAME TO readings_unpartitioned;
ALTER TABLE readings_unpartitioned RENAME CONSTRAINT readings_pkey TO readings_unpartitioned_pkey;
ALTER INDEX readings_wearer_at_idx RENAME TO readings_unpartitioned_wearer_at_idx;
ALTER INDEX readings_at_idx RENAME TO readings_unpartitioned_at_idx;

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
  wbgt              real,
  PRIMARY KEY (bracelet_id, at)
) PARTITION BY RANGE (at);
CREATE INDEX readings_wearer_at_idx ON readings (wearer_id, at);
CREATE INDEX readings_at_idx ON readings (at);
CREATE TABLE readings_default PARTITION OF readings DEFAULT;

INSERT INTO readings (bracelet_id, at, wearer_id, organization_id, heart_rate, skin_temperature,
                      worn, steps, sleep_stage, stress_level, battery, wbgt)
SELECT bracelet_id, at, wearer_id, organization_id, heart_rate, skin_temperature,
       worn, steps, sleep_stage, stress_level, battery, wbgt
  FROM readings_unpartitioned;
DROP TABLE readings_unpartitioned;
