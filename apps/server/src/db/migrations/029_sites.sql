-- Places (issue 17, item 1): an organisation's sites (a building, a floor, a yard), optionally in
-- one of its groups, each with an optional plan image on which its gateways are placed.
CREATE TABLE sites (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  group_id         text REFERENCES groups(id) ON DELETE SET NULL,
  name             text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  created_at       timestamptz NOT NULL DEFAULT now(),
  -- The target of gateway_places' (organization_id, site_id): a gateway is only ever on a site of its own organisation.
  UNIQUE (organization_id, id)
);
CREATE UNIQUE INDEX sites_name_key ON sites (organization_id, lower(name));
CREATE INDEX sites_group_idx ON sites (group_id) WHERE group_id IS NOT NULL;

-- The plan image, kept in the database so every server of a cluster serves the same one. Its
-- format was read from its content (magic bytes and dimensions), never from a name or a declared type.
CREATE TABLE site_plans (
  site_id      text PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
  format       text NOT NULL CHECK (format IN ('png', 'jpeg', 'webp')),
  width        integer NOT NULL CHECK (width > 0),
  height       integer NOT NULL CHECK (height > 0),
  bytes        bytea NOT NULL CHECK (octet_length(bytes) BETWEEN 1 AND 5242880),
  sha256       text NOT NULL,
  uploaded_at  timestamptz NOT NULL,
  uploaded_by  text
);

-- Where a gateway is: on a site's plan (x, y as fractions of the plan's width and height, from its
-- top left) and/or at a latitude and longitude. No row: placed nowhere.
CREATE UNIQUE INDEX gateways_organization_id_key ON gateways (organization_id, id);
CREATE TABLE gateway_places (
  gateway_id       text PRIMARY KEY,
  organization_id  text NOT NULL,
  site_id          text,
  plan_x           double precision CHECK (plan_x BETWEEN 0 AND 1),
  plan_y           double precision CHECK (plan_y BETWEEN 0 AND 1),
  latitude         double precision CHECK (latitude BETWEEN -90 AND 90),
  longitude        double precision CHECK (longitude BETWEEN -180 AND 180),
  updated_at       timestamptz NOT NULL,
  FOREIGN KEY (organization_id, gateway_id) REFERENCES gateways (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, site_id) REFERENCES sites (organization_id, id),
  CHECK ((site_id IS NULL) = (plan_x IS NULL) AND (plan_x IS NULL) = (plan_y IS NULL)),
  CHECK ((latitude IS NULL) = (longitude IS NULL)),
  CHECK (site_id IS NOT NULL OR latitude IS NOT NULL)
);
CREATE INDEX gateway_places_site_idx ON gateway_places (site_id) WHERE site_id IS NOT NULL;
