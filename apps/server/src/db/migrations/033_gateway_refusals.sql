-- Refused data is visible where staff look (issue 34 item 3, docs/decisions/0014-refusals-per-gateway.md).

-- Bracelet serials are matched case-insensitively: stored trimmed with ASCII letters upper-case
-- (packages/domain/src/serials.ts, `normalizeSerial`), and every look-up normalises what it is given.
-- Existing serials are normalised; where two bracelets differ only in case or spaces, the one already
-- normalised (else the oldest) takes the normalised serial and the others keep theirs unchanged (they
-- can no longer be reached by a gateway and show as they are in the console, to be fixed by hand):
-- no bracelet, and none of its history, is lost or merged by a migration.
-- ASCII letters only, as normalizeSerial: upper() follows the database's locale, translate() does not.
CREATE FUNCTION bracelet_serial_normal(serial text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT translate(btrim(serial, E' \t\r\n'),
                   'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
$$;

WITH ranked AS (
  SELECT id,
         bracelet_serial_normal(serial_number) AS normal,
         row_number() OVER (
           PARTITION BY bracelet_serial_normal(serial_number)
           ORDER BY (serial_number = bracelet_serial_normal(serial_number)) DESC, created_at, id
         ) AS n
    FROM bracelets
)
UPDATE bracelets b SET serial_number = r.normal
  FROM ranked r
 WHERE b.id = r.id AND r.n = 1 AND b.serial_number <> r.normal;

-- Whatever writes a bracelet (the console, the seed, a test's factory, an enrolment) stores it normalised.
CREATE FUNCTION bracelet_serial_normalised() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.serial_number := bracelet_serial_normal(NEW.serial_number);
  RETURN NEW;
END
$$;
CREATE TRIGGER bracelets_serial_normalised BEFORE INSERT OR UPDATE OF serial_number ON bracelets
  FOR EACH ROW EXECUTE FUNCTION bracelet_serial_normalised();

-- What a gateway sent that was refused, counted per reason and serial (one row each; '' when the item
-- named no serial). Written in one statement every few seconds per server for all gateways
-- (gateway-refusals.buffer.ts), never per item; a batch with nothing refused writes nothing here.
CREATE TABLE gateway_refusals (
  gateway_id     text NOT NULL REFERENCES gateways(id) ON DELETE CASCADE,
  reason         text NOT NULL,
  serial_number  text NOT NULL,
  -- The last one's list and reason text, as the gateway was told.
  list           text NOT NULL,
  detail         text NOT NULL,
  times          integer NOT NULL,
  first_at       timestamptz NOT NULL,
  last_at        timestamptz NOT NULL,
  PRIMARY KEY (gateway_id, reason, serial_number)
);
