import { describe, expect, it } from 'vitest';
import { compareByReading } from './name-order.js';

const people = [
  { uid: 'a', name: '一 二三', nameReading: 'にのまえ ふみ' },
  { uid: 'b', name: '佐藤 花子', nameReading: 'さとう はなこ' },
  { uid: 'c', name: '阿部 一郎', nameReading: null },
  { uid: 'd', name: 'いとう', nameReading: '' },
];

describe('names sort by their reading (あいうえお), else by the name', () => {
  it.each(['ja', 'en'])('in %s', (locale) => {
    const sorted = [...people].sort(compareByReading(new Intl.Collator(locale)));
    // 阿部 has no reading: it sorts by its kanji, which ICU's Japanese order puts first (阿 = あ)
    // and the root order puts after the kana; the readings order さとう before にのまえ either way.
    const names = sorted.map((p) => p.name);
    expect(names.indexOf('いとう')).toBeLessThan(names.indexOf('佐藤 花子'));
    expect(names.indexOf('佐藤 花子')).toBeLessThan(names.indexOf('一 二三'));
  });

  it('ties fall back to the name, then the id: a total order', () => {
    const compare = compareByReading(new Intl.Collator('ja'));
    const twins = [
      { uid: 'z', name: '同じ', nameReading: 'おなじ' },
      { uid: 'y', name: '同じ', nameReading: 'おなじ' },
    ];
    expect([...twins].sort(compare).map((p) => p.uid)).toEqual(['y', 'z']);
  });
});
