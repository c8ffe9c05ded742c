-- Rollups and latest values are folded in memory and written once per flush interval
-- (modules/readings/rollup-folder.ts, decision record 0011). A batch's transaction records
-- which (wearer, hour) it left to a later flush, under the generation (gen) of the process's
-- fold that will write it; the flush deletes its generation's rows after writing. Rows left by
-- a process that died before flushing tell the recovery which hours to recompute from
-- readings. Rows of one generation are only ever inserted by the batches of that generation
-- and deleted by its flush, so batches and flushes never wait for each other here.
CREATE TABLE rollup_pending (
  gen        text NOT NULL,
  wearer_id  text NOT NULL,
  hour       timestamptz NOT NULL,
  marked_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (gen, wearer_id, hour)
);
