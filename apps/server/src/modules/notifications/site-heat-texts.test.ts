import { describe, expect, it } from 'vitest';
import { siteHeatMessage } from './site-heat-texts.js';

// 2026-08-03 14:03 JST.
const base = {
  groupName: '第一現場',
  gatewayName: '東ゲート',
  at: new Date('2026-08-03T05:03:00Z'),
  timeZone: 'Asia/Tokyo',
};

describe('siteHeatMessage', () => {
  it('a rise names the site, the WBGT, the new level and what to do', () => {
    const m = { ...base, kind: 'rise', from: 'SEVERE', to: 'DANGER', wbgt: 31.44 } as const;
    expect(siteHeatMessage(m)).toBe(
      '【危険】第一現場 (東ゲート): 暑さ指数 WBGT 31.4 — 危険レベルになりました。作業中止・休憩の判断を 14:03',
    );
    expect(siteHeatMessage(m, 'en')).toBe(
      '[Danger] 第一現場 (東ゲート): WBGT 31.4 — the site is now at the danger level. Decide on stopping work and breaks 14:03',
    );
  });

  it('the return below SEVERE says so and names the level now', () => {
    const m = { ...base, kind: 'clear', from: 'DANGER', to: 'CAUTION', wbgt: 26 } as const;
    expect(siteHeatMessage(m)).toBe(
      '【解除】第一現場 (東ゲート): 暑さ指数 WBGT 26.0 — 厳重警戒レベルを下回りました (現在: 注意) 14:03',
    );
    expect(siteHeatMessage(m, 'en')).toBe(
      '[Cleared] 第一現場 (東ゲート): WBGT 26.0 — the site is below the severe level (now: caution) 14:03',
    );
  });

  it('a gateway outside any group is named alone', () => {
    const m = {
      ...base,
      groupName: null,
      kind: 'rise',
      from: 'NORMAL',
      to: 'CAUTION',
      wbgt: 25,
    } as const;
    expect(siteHeatMessage(m)).toMatch(/^【注意】東ゲート: 暑さ指数 WBGT 25\.0 — /);
  });
});
