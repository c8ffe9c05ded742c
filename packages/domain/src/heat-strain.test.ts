import { describe, expect, it } from 'vitest';
import {
  ECTEMP_START,
  ectempPredict,
  ectempStep,
  estimateCoreTemperature,
  expectedHeartRate,
  physiologicalStrainIndex,
  adaptivePhysiologicalStrainIndex,
  criticalCoreTemperature,
} from './heat-strain.js';

/** The EKF step written out from Buller 2013's equations, independently of the module. */
function handStep(ct: number, v: number, hr: number) {
  const vPred = v + 0.022 * 0.022;
  const m = -2 * 4.5714 * ct + 384.4286;
  const hrPred = -4.5714 * ct * ct + 384.4286 * ct - 7887.1;
  const k = (vPred * m) / (m * m * vPred + 18.88 * 18.88);
  return { ct: ct + k * (hr - hrPred), v: (1 - k * m) * vPred, vPred, m, k };
}

describe('ectempStep: worked trace (Buller 2013)', () => {
  it('minute 1, HR 100 from CT 37.1, v 0, with explicit numbers', () => {
    const vPred = 0.000484; // 0 + 0.022^2
    const m = -2 * 4.5714 * 37.1 + 384.4286; // 45.23072
    const hrPred = -4.5714 * 37.1 ** 2 + 384.4286 * 37.1 - 7887.1; // 83.080386
    const k = (vPred * m) / (m ** 2 * vPred + 356.4544); // 18.88^2 = 356.4544
    expect(m).toBeCloseTo(45.23072, 5);
    expect(hrPred).toBeCloseTo(83.080386, 5);
    expect(k).toBeCloseTo(6.1244931e-5, 11);
    const ct1 = 37.1 + k * (100 - hrPred);
    const v1 = (1 - k * m) * vPred;
    expect(ct1).toBeCloseTo(37.1010362, 7);
    expect(v1).toBeCloseTo(0.00048265925, 11);

    const got = ectempStep(ECTEMP_START, 100);
    expect(got.ct).toBeCloseTo(ct1, 12);
    expect(got.v).toBeCloseTo(v1, 14);
  });

  it('minutes 2 and 3 (HR 110, 120) follow the same equations', () => {
    const s1 = handStep(37.1, 0, 100);
    const s2 = handStep(s1.ct, s1.v, 110);
    const s3 = handStep(s2.ct, s2.v, 120);
    expect(s2.ct).toBeCloseTo(37.1043136, 7);
    expect(s3.ct).toBeCloseTo(37.1109877, 7);
    expect(s3.v).toBeCloseTo(0.00143345787, 11);

    const series = estimateCoreTemperature([100, 110, 120]);
    expect(series).toHaveLength(3);
    expect(series[1]!.ct).toBeCloseTo(s2.ct, 12);
    expect(series[2]!.ct).toBeCloseTo(s3.ct, 12);
    expect(series[2]!.v).toBeCloseTo(s3.v, 14);
  });

  it('a long series matches the hand-written filter minute by minute', () => {
    const hrs = Array.from({ length: 120 }, (_, i) => 70 + ((i * 37) % 100));
    let ct = 37.1;
    let v = 0;
    const series = estimateCoreTemperature(hrs);
    hrs.forEach((hr, i) => {
      ({ ct, v } = handStep(ct, v, hr));
      expect(series[i]!.ct).toBeCloseTo(ct, 10);
      expect(series[i]!.v).toBeCloseTo(v, 12);
    });
  });
});

describe('ECTemp published properties', () => {
  it('a steady HR of 160 drives CT up over an hour toward where the observation gives 160', () => {
    // Lower root of -4.5714 CT^2 + 384.4286 CT - 7887.1 = 160.
    const a = -4.5714;
    const b = 384.4286;
    const c = -7887.1 - 160;
    const fixedPoint = (-b + Math.sqrt(b * b - 4 * a * c)) / (2 * a);
    expect(fixedPoint).toBeCloseTo(39.28, 2);
    expect(expectedHeartRate(fixedPoint)).toBeCloseTo(160, 6);

    const series = estimateCoreTemperature(Array<number>(60).fill(160));
    const last = series[59]!.ct;
    expect(last).toBeGreaterThan(38.5);
    expect(last).toBeLessThan(fixedPoint);
    // Strictly rising, every minute.
    for (let i = 1; i < series.length; i++) {
      expect(series[i]!.ct).toBeGreaterThan(series[i - 1]!.ct);
    }
  });

  it('a resting HR of 70 keeps CT near or below the start', () => {
    const series = estimateCoreTemperature(Array<number>(60).fill(70));
    for (const e of series) {
      expect(e.ct).toBeLessThanOrEqual(37.1);
      expect(e.ct).toBeGreaterThan(36.5);
    }
  });

  it('is monotonic in heart rate: a higher HR never gives a lower CT', () => {
    const prev = { ct: 37.6, v: 0.01 };
    let last = -Infinity;
    for (let hr = 40; hr <= 220; hr += 5) {
      const { ct } = ectempStep(prev, hr);
      expect(ct).toBeGreaterThan(last);
      last = ct;
    }
  });

  it('predict-only minutes leave CT unchanged and grow v by gamma^2 each', () => {
    const prev = { ct: 37.8, v: 0.003 };
    const one = ectempStep(prev, null);
    expect(one.ct).toBe(37.8);
    expect(one.v).toBeCloseTo(0.003 + 0.000484, 12);
    const five = ectempPredict(prev, 5);
    expect(five.ct).toBe(37.8);
    expect(five.v).toBeCloseTo(0.003 + 5 * 0.000484, 12);
    const series = estimateCoreTemperature([null, undefined, null], prev);
    expect(series.map((e) => e.ct)).toEqual([37.8, 37.8, 37.8]);
    expect(series[2]!.v).toBeCloseTo(five.v - 2 * 0.000484, 12);
  });

  it('a larger variance (after missed minutes) gives a larger step toward the measurement', () => {
    const fresh = ectempStep({ ct: 37.5, v: 0.001 }, 160);
    const stale = ectempStep(ectempPredict({ ct: 37.5, v: 0.001 }, 10), 160);
    expect(stale.ct - 37.5).toBeGreaterThan(fresh.ct - 37.5);
  });
});

describe('physiologicalStrainIndex (Moran 1998)', () => {
  it('computes 5 (CT - CT0)/(39.5 - CT0) + 5 (HR - HR0)/(180 - HR0)', () => {
    expect(physiologicalStrainIndex(37.1, 60, 37.1, 60)).toBe(0);
    expect(physiologicalStrainIndex(39.5, 180, 37.1, 60)).toBeCloseTo(10, 10);
    // 5 * 1.4 / 2.4 + 5 * 110 / 120
    expect(physiologicalStrainIndex(38.5, 170, 37.1, 60)).toBeCloseTo(2.9166667 + 4.5833333, 6);
  });
  it('stays finite when a baseline reaches the scale ceiling', () => {
    expect(Number.isFinite(physiologicalStrainIndex(39.6, 185, 39.5, 180))).toBe(true);
  });
});

describe('adaptive PSI (Buller 2023 structure, our CT_crit anchors)', () => {
  it('CT_crit: 38.0 C with no gradient, 39.5 C from a 4 C gradient, linear between', () => {
    expect(criticalCoreTemperature(-1)).toBe(38);
    expect(criticalCoreTemperature(0)).toBe(38);
    expect(criticalCoreTemperature(2)).toBeCloseTo(38.75, 12); // 38 + 1.5 x 2/4
    expect(criticalCoreTemperature(4)).toBe(39.5);
    expect(criticalCoreTemperature(6)).toBe(39.5);
  });

  it('worked example by hand: CT 38.2, skin 36.7, HR 165, CT0 37.1, HR0 90', () => {
    // gradient = 38.2 - 36.7 = 1.5 C
    // CT_crit  = 38.0 + (39.5 - 38.0) x 1.5/4 = 38.0 + 1.5 x 0.375 = 38.5625
    // core     = 5 (38.2 - 37.1)/(38.5625 - 37.1) = 5.5/1.4625 = 3.7606838
    // heart    = 5 (165 - 90)/(180 - 90) = 375/90 = 4.1666667
    // aPSI     = 3.7606838 + 4.1666667 = 7.9273504  ("high"; Moran's PSI would say 6.458)
    const got = adaptivePhysiologicalStrainIndex(38.2, 36.7, 165, 37.1, 90);
    expect(got.gradient).toBeCloseTo(1.5, 12);
    expect(got.criticalCoreTemperature).toBeCloseTo(38.5625, 12);
    expect(got.apsi).toBeCloseTo(7.9273504, 6);
    // PSI = 5 x 1.1/2.4 + 4.1666667 = 2.2916667 + 4.1666667 = 6.4583333
    expect(physiologicalStrainIndex(38.2, 165, 37.1, 90)).toBeCloseTo(6.4583333, 6);
  });

  it("with a normal gradient it is Moran's PSI", () => {
    const got = adaptivePhysiologicalStrainIndex(38.6, 33.5, 160, 37.1, 70);
    expect(got.criticalCoreTemperature).toBe(39.5);
    expect(got.apsi).toBeCloseTo(physiologicalStrainIndex(38.6, 160, 37.1, 70), 12);
  });

  it('a baseline at the critical core temperature does not divide by zero', () => {
    expect(Number.isFinite(adaptivePhysiologicalStrainIndex(38.5, 38.5, 150, 38.0, 90).apsi)).toBe(
      true,
    );
  });
});
