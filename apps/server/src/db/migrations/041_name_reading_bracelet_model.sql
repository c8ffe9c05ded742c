-- Issue 35 item 2: a wearer's name as it is read (furigana, e.g. やまだ たろう), by which lists sort
-- in あいうえお order (kanji names do not sort by their reading otherwise), and a bracelet's model,
-- as a CSV import of bracelets names it. Both optional: null means not given.
ALTER TABLE users ADD COLUMN name_reading text;
ALTER TABLE bracelets ADD COLUMN model text;
