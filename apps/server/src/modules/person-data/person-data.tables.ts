/**
 * Every table that names a person, and what a person's export and erasure do with it (docs/privacy.md). The
 * test `person-data.test.ts` lists the tables of the migrated schema that have a person column and fails on one
 * missing here, so a new table cannot hold a person's data that the export forgets or the erasure leaves.
 *
 * erase:
 * - `delete`: rows of the wearer deleted by `wearer_id` (the telemetry tables carry no foreign key,
 *   docs/decisions/0005);
 * - `cascade`: removed with the person's `users` row or with their alerts (a foreign key ON DELETE CASCADE);
 * - `unlink`: the row stays (it is the organisation's: a bracelet, a gateway), its reference to the person is set
 *   to NULL by the foreign key;
 * - `scrub`: the audit log keeps that something happened (kind, time, who did it) without the data;
 * - `other`: the column names someone else (a staff member who acted, a recipient); the person is not in it;
 * - `keep`: the access log keeps who read whose data by id (its rows are chained: docs/access-log.md); an id names
 *   no one once the person is gone.
 */
export type EraseRule = 'delete' | 'cascade' | 'unlink' | 'scrub' | 'other' | 'keep';

export interface PersonTable {
  /** The file of the export that holds its rows, or why it has none. */
  exported: string;
  erase: EraseRule;
}

export const PERSON_TABLES: Record<string, PersonTable> = {
  users: { exported: 'profile.json', erase: 'cascade' },
  readings: { exported: 'readings.csv', erase: 'delete' },
  reading_minutes: { exported: 'reading-minutes.csv', erase: 'delete' },
  reading_hours: { exported: 'reading-hours.csv', erase: 'delete' },
  wearer_latest: { exported: 'latest.csv', erase: 'delete' },
  wearer_positions: { exported: 'positions.csv', erase: 'delete' },
  wearer_places: { exported: 'places.csv', erase: 'cascade' },
  device_events: { exported: 'device-events.csv', erase: 'delete' },
  rollup_pending: { exported: 'none: a queue of hours to fold again', erase: 'delete' },
  engine_state: { exported: 'profile.json (engineState)', erase: 'cascade' },
  wearer_alert_settings: { exported: 'profile.json (alertSettings)', erase: 'cascade' },
  alerts: { exported: 'alerts.csv', erase: 'cascade' },
  alert_snoozes: { exported: 'snoozes.csv', erase: 'cascade' },
  notifications: { exported: 'notifications.csv (without recipients)', erase: 'cascade' },
  night_round_marks: { exported: 'night-round-marks.csv', erase: 'cascade' },
  bracelets: { exported: 'devices.csv', erase: 'unlink' },
  bracelet_assignments: { exported: 'device-assignments.csv', erase: 'cascade' },
  user_links: { exported: 'family-links.csv', erase: 'cascade' },
  family_notice_preferences: { exported: 'family-links.csv (notice)', erase: 'cascade' },
  invitations: { exported: "none: a family member's invitation (their address)", erase: 'cascade' },
  gateways: { exported: 'none: the phone gateway carried by them', erase: 'unlink' },
  audit_log: { exported: 'audit.csv', erase: 'scrub' },
  access_log: { exported: 'access-log.csv', erase: 'keep' },
  // A PERSONAL_SELF wearer signs in: their sessions and sign-in factors go with their users row.
  refresh_tokens: { exported: 'none: session secrets', erase: 'cascade' },
  live_tickets: { exported: 'none: session secrets', erase: 'cascade' },
  sign_in_challenges: { exported: 'none: sign-in secrets', erase: 'cascade' },
  sign_in_codes: { exported: 'none: sign-in secrets', erase: 'cascade' },
  user_totp: { exported: 'none: sign-in secrets', erase: 'cascade' },
  user_passkeys: { exported: 'none: sign-in secrets', erase: 'cascade' },
  passkey_challenges: { exported: 'none: sign-in secrets', erase: 'cascade' },
  terms_agreements: { exported: 'profile.json (termsAgreements)', erase: 'cascade' },
  api_tokens: { exported: 'none: staff only', erase: 'cascade' },
  group_managers: { exported: 'none: staff only', erase: 'cascade' },
  group_alert_notice_settings: { exported: 'none: staff recipients', erase: 'other' },
  notice_buckets: { exported: 'none: staff recipients', erase: 'other' },
  push_subscriptions: {
    exported: 'none: the addresses of browsers that receive push notices',
    erase: 'cascade',
  },
  chat_user_links: {
    exported: 'none: staff only (a chat account linked to a console account)',
    erase: 'cascade',
  },
  chat_link_codes: { exported: 'none: sign-in secrets', erase: 'cascade' },
  group_on_call_rotas: { exported: 'none: staff only', erase: 'other' },
  group_on_call_overrides: { exported: 'none: staff only', erase: 'cascade' },
  group_on_call_handovers: { exported: 'none: staff only', erase: 'other' },
};
