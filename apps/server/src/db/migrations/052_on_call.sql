-- Issue 38 item 3: a group's on-call rota (daily, weekly or a shift cycle), overrides for a period, the
-- handover summaries sent, and a notice recipient that is "whoever is on call" (docs/on-call.md).

-- The rota as the domain's `onCallRota` (packages/domain/src/on-call.ts): validated by the API, read whole.
CREATE TABLE group_on_call_rotas (
  group_id        text PRIMARY KEY REFERENCES groups(id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  rota            jsonb NOT NULL,
  updated_at      timestamptz NOT NULL,
  updated_by      text REFERENCES users(id) ON DELETE SET NULL
);

-- Someone covers [starts_at, ends_at) instead of the rota; the newest wins where two overlap.
CREATE TABLE group_on_call_overrides (
  id              text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  group_id        text NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
  user_id         text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  starts_at       timestamptz NOT NULL,
  ends_at         timestamptz NOT NULL CHECK (ends_at > starts_at),
  note            text,
  created_at      timestamptz NOT NULL,
  created_by      text REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX group_on_call_overrides_group_idx ON group_on_call_overrides (group_id, ends_at);

-- One handover summary per group and handover instant, whichever server's sweep sends it.
CREATE TABLE group_on_call_handovers (
  group_id        text NOT NULL REFERENCES groups(id) ON DELETE CASCADE,
  handover_at     timestamptz NOT NULL,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_ids        jsonb NOT NULL,
  sent_at         timestamptz NOT NULL,
  PRIMARY KEY (group_id, handover_at)
);

-- A recipient is a staff member, a number, or whoever is on call when the notice leaves.
ALTER TABLE group_alert_notice_settings ADD COLUMN on_call boolean NOT NULL DEFAULT false;
ALTER TABLE group_alert_notice_settings DROP CONSTRAINT IF EXISTS group_alert_notice_settings_check;
ALTER TABLE group_alert_notice_settings ADD CONSTRAINT group_alert_notice_settings_target_check
  CHECK (num_nonnulls(user_id, phone_number) + CASE WHEN on_call THEN 1 ELSE 0 END = 1);
