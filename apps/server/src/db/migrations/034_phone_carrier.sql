-- Issue 34: a phone gateway belongs to a person. Who carries a SMARTPHONE gateway's phone: a wearer
-- (phone_wearer_id), or a shared phone (phone_shared) whose person is chosen on the phone. The phone's
-- own bracelet PHONE-<gatewayId> is paired to that person (docs/phone-gateway.md, "Who carries the phone").
ALTER TABLE gateways ADD COLUMN phone_shared boolean NOT NULL DEFAULT false;
ALTER TABLE gateways ADD COLUMN phone_wearer_id text REFERENCES users(id) ON DELETE SET NULL;
-- The last SOS or fall the phone reported it could not deliver: { at, type, reason, reportedAt }.
ALTER TABLE gateways ADD COLUMN phone_failure jsonb;
-- The number a phone offers beside 119 when an SOS cannot be delivered (optional).
ALTER TABLE organizations ADD COLUMN emergency_phone text;
