import { describe, expect, it } from 'vitest';
import { ALERT_LEVEL_OF } from './alerts.js';
import {
  KIND_ALERT_DEFAULTS,
  KIND_NOTICE_TYPES,
  ORGANIZATION_KINDS,
} from './organization-kinds.js';

// Issue 36 item 4: the alert types a new notice recipient is told of follow the organisation's kind.
describe("a kind's default notice types", () => {
  it('never name a type whose rule the kind turns off by default', () => {
    for (const kind of ORGANIZATION_KINDS) {
      const enabled = KIND_ALERT_DEFAULTS[kind].enabled ?? {};
      const off = Object.entries(enabled)
        .filter(([, on]) => on === false)
        .map(([type]) => type);
      expect(
        KIND_NOTICE_TYPES[kind].filter((t) => off.includes(t)),
        kind,
      ).toEqual([]);
    }
  });

  it('always include every EMERGENCY type (SOS, fall)', () => {
    const emergency = Object.entries(ALERT_LEVEL_OF)
      .filter(([, level]) => level === 'EMERGENCY')
      .map(([type]) => type);
    for (const kind of ORGANIZATION_KINDS)
      expect(KIND_NOTICE_TYPES[kind], kind).toEqual(expect.arrayContaining(emergency));
  });

  it('no sleep alerts to a construction site; the care home is told of waking at night', () => {
    expect(KIND_NOTICE_TYPES.CONSTRUCTION_SITE).not.toContain('AWAKENING_ALERT');
    expect(KIND_NOTICE_TYPES.CARE_HOME).toContain('AWAKENING_ALERT');
    expect(KIND_NOTICE_TYPES.OTHER).toEqual(['SOS_CALL', 'DETECT_FALL_DOWN']);
  });
});
