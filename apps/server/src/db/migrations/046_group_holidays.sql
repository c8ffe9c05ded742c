-- Issue 38 item 3: Japanese public holidays count as the weekend (the Sunday row) in a recipient's weekly
-- notice schedule, unless the group says its holidays are ordinary weekdays (docs/on-call.md).
ALTER TABLE groups ADD COLUMN public_holidays_as_weekdays boolean NOT NULL DEFAULT false;
