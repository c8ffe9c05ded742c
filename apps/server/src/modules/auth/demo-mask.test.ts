import { describe, expect, it } from 'vitest';
import { maskContacts, maskContactText, maskEmail, maskPhone } from './demo-mask.js';

describe('masking contacts for the public demo', () => {
  it('keeps the shape of an address and the last two digits of a number, nothing of whose', () => {
    expect(maskEmail('sato.hanako@example.co.jp')).toBe('s***@***.jp');
    expect(maskPhone('+819012345678')).toBe('+**********78');
    expect(maskPhone('090-1234-5678')).toBe('***-****-**78');
  });

  it('masks contact fields at any depth and leaves every other field as it is', () => {
    const masked = maskContacts({
      members: [{ name: '佐藤', mail: 'sato@example.com', role: 'ORGANIZATION_OWNER' }],
      recipients: [{ phoneNumber: '+819012345678', channel: 'SMS', order: 1 }],
      log: [{ recipient: 'ops@example.com' }, { recipient: '+819011112222' }],
      hospital: { name: '中央病院', phone: '03-1234-5678' },
      mail: null,
    });
    expect(masked).toEqual({
      members: [{ name: '佐藤', mail: 's***@***.com', role: 'ORGANIZATION_OWNER' }],
      recipients: [{ phoneNumber: '+**********78', channel: 'SMS', order: 1 }],
      log: [{ recipient: 'o***@***.com' }, { recipient: '+**********22' }],
      hospital: { name: '中央病院', phone: '**-****-**78' },
      mail: null,
    });
  });

  it('masks addresses and numbers in text (a CSV) but not dates or times', () => {
    const csv =
      '2026/07/01 14:03,佐藤,sato@example.com,+81 90 1234 5678,090-1234-5678,WBGT 31.4\r\n';
    expect(maskContactText(csv)).toBe(
      '2026/07/01 14:03,佐藤,s***@***.com,+** ** **** **78,***-****-**78,WBGT 31.4\r\n',
    );
  });
});
