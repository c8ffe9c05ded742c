#!/usr/bin/env node
// Draws the /phone app's icons (PNG, no image library): a white heart on the product's teal, full bleed so
// the same file serves as a maskable icon (the heart stays inside the 80 % safe zone).
// Usage: node apps/web/scripts/phone-icons.mjs  (writes apps/web/phone/public/icon-{192,512}.png)
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'phone', 'public');
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
/** Inside the heart curve (x^2 + y^2 - 1)^3 - x^2 y^3 <= 0, in a box of -1.5..1.5. */
const inHeart = (x, y) => (x * x + y * y - 1) ** 3 - x * x * y ** 3 <= 0;

for (const size of [192, 512]) {
  const rows = [];
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let px = 0; px < size; px++) {
      const x = ((px + 0.5) / size - 0.5) * 3.2;
      const y = -((py + 0.5) / size - 0.5) * 3.2 + 0.1;
      const white = inHeart(x, y);
      row.set(white ? [255, 255, 255] : [15, 118, 110], 1 + px * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  writeFileSync(join(out, `icon-${size}.png`), png);
  console.log(`icon-${size}.png ${png.length} bytes`);
}
