import { describe, expect, it } from 'vitest';
import { parseVerifyFragment } from './verify-fragment';

describe('parseVerifyFragment', () => {
  it.each([
    ['#signin=abc_DEF-123', { kind: 'signin', token: 'abc_DEF-123' }],
    ['#invite=tok', { kind: 'invite', token: 'tok' }],
    ['signin=tok', { kind: 'signin', token: 'tok' }],
    ['', null],
    ['#', null],
    ['#token=abc', null],
    ['#signin=', null],
  ])('%s -> %j', (hash, expected) => {
    expect(parseVerifyFragment(hash)).toEqual(expected);
  });
});
