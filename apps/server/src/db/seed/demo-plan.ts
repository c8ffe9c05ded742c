import { crc32, deflateSync } from 'node:zlib';

/**
 * The demo's site plan (issue 36 item 7): a construction yard drawn here, so that /map shows the demo's first
 * site with its people on it and no image file is kept in the repository. A real PNG (RGB, 8 bits), checked by
 * the same content check as an upload (site-plan-image.ts) in the seed's test.
 *
 * What it shows, from the top left: a material yard (hatched), the building going up (its column grid), a
 * tower crane's base and reach, the site office (詰所) at the bottom left, where the demo's stationary gateway
 * is placed (`DEMO_PLAN_OFFICE`), and the road along the bottom with the gate. No words: the markers name
 * the zones, in the reader's language.
 */
export const DEMO_PLAN_WIDTH = 1200;
export const DEMO_PLAN_HEIGHT = 700;

type Rgb = readonly [number, number, number];
const GROUND: Rgb = [245, 241, 232];
const FENCE: Rgb = [71, 85, 105];
const ROAD: Rgb = [203, 213, 225];
const ROAD_LINE: Rgb = [255, 255, 255];
const SLAB: Rgb = [226, 232, 240];
const WALL: Rgb = [51, 65, 85];
const OFFICE: Rgb = [191, 219, 254];
const OFFICE_WALL: Rgb = [30, 58, 138];
const YARD_LINE: Rgb = [180, 170, 150];
const CRANE: Rgb = [217, 119, 6];

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
const inBox = (b: Box, x: number, y: number) => x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1;
/** On the box's outline, `w` pixels wide (inside it). */
const onEdge = (b: Box, x: number, y: number, w: number) =>
  inBox(b, x, y) && !inBox({ x0: b.x0 + w, y0: b.y0 + w, x1: b.x1 - w, y1: b.y1 - w }, x, y);

const SITE: Box = { x0: 20, y0: 20, x1: 1180, y1: 560 };
const GATE: Box = { x0: 560, y0: 552, x1: 680, y1: 568 };
const ROAD_BAND: Box = { x0: 0, y0: 590, x1: 1200, y1: 670 };
const BUILDING: Box = { x0: 380, y0: 90, x1: 980, y1: 470 };
const OFFICE_BOX: Box = { x0: 70, y0: 400, x1: 310, y1: 530 };
const MATERIALS: Box = { x0: 70, y0: 80, x1: 310, y1: 320 };
const CRANE_AT = { x: 1075, y: 250, base: 22, reach: 150 };

/** Where the site office is on the plan, as fractions of its width and height (the gateway's place). */
export const DEMO_PLAN_OFFICE = {
  x: (OFFICE_BOX.x0 + OFFICE_BOX.x1) / 2 / DEMO_PLAN_WIDTH,
  y: (OFFICE_BOX.y0 + OFFICE_BOX.y1) / 2 / DEMO_PLAN_HEIGHT,
};

function pixel(x: number, y: number): Rgb {
  if (inBox(ROAD_BAND, x, y)) {
    const middle = Math.abs(y - (ROAD_BAND.y0 + ROAD_BAND.y1) / 2) < 2;
    return middle && x % 60 < 34 ? ROAD_LINE : ROAD;
  }
  if (inBox(GATE, x, y)) return GROUND;
  if (onEdge(SITE, x, y, 5)) return FENCE;
  if (onEdge(OFFICE_BOX, x, y, 5)) return OFFICE_WALL;
  if (inBox(OFFICE_BOX, x, y)) return OFFICE;
  if (onEdge(BUILDING, x, y, 7)) return WALL;
  if (inBox(BUILDING, x, y)) {
    // Columns every 75 px, 14 px square.
    const cx = (x - BUILDING.x0) % 75;
    const cy = (y - BUILDING.y0) % 76;
    return cx >= 30 && cx < 44 && cy >= 31 && cy < 45 ? WALL : SLAB;
  }
  if (onEdge(MATERIALS, x, y, 3)) return YARD_LINE;
  if (inBox(MATERIALS, x, y)) return (x + y) % 24 < 3 ? YARD_LINE : GROUND;
  const dx = x - CRANE_AT.x;
  const dy = y - CRANE_AT.y;
  if (Math.abs(dx) < CRANE_AT.base && Math.abs(dy) < CRANE_AT.base) return CRANE;
  const r = Math.hypot(dx, dy);
  // The reach: a dashed circle.
  if (Math.abs(r - CRANE_AT.reach) < 2 && Math.floor(Math.atan2(dy, dx) * 24) % 2 === 0)
    return CRANE;
  return GROUND;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The plan as PNG bytes (about 8 kB). */
export function demoSitePlanPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(DEMO_PLAN_WIDTH, 0);
  header.writeUInt32BE(DEMO_PLAN_HEIGHT, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const stride = 1 + DEMO_PLAN_WIDTH * 3;
  const raw = Buffer.alloc(stride * DEMO_PLAN_HEIGHT);
  for (let y = 0; y < DEMO_PLAN_HEIGHT; y++) {
    raw[y * stride] = 0; // filter: none
    for (let x = 0; x < DEMO_PLAN_WIDTH; x++) raw.set(pixel(x, y), y * stride + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
