-- Why a gateway sent a FALL (issue 16): {"trigger": "impact"} or {"trigger": "man-down", "stillMinutes": 5},
-- as the gateway protocol's optional event `cause` (packages/domain/src/contracts/gateway.ts, fallCause).
-- NULL: the gateway did not say (every stationary gateway, every event from before this column).
ALTER TABLE device_events ADD COLUMN cause jsonb;
