-- Acknowledgement semantics (PRODUCT.md, "Acknowledgement"): any alert, open or already closed
-- by recovery, can be confirmed; "unconfirmed" is confirmed_at IS NULL. A confirmation records
-- who (confirmed_by), when (confirmed_at), an optional reason from a short list and a note.
ALTER TABLE alerts
  ADD COLUMN confirm_reason text
    CHECK (confirm_reason IN ('FALSE_ALARM','CHECKED_ON_SITE','TREATED','TRANSFERRED_TO_HOSPITAL','OTHER')),
  ADD COLUMN confirm_note text CHECK (char_length(confirm_note) <= 500);

-- The unconfirmed count behind the popup and the badges, per organisation.
CREATE INDEX alerts_unconfirmed_organization_idx ON alerts (organization_id, opened_at DESC)
  WHERE confirmed_at IS NULL;
