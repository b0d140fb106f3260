import { writeFileSync, mkdirSync } from 'node:fs';
import sharp from 'sharp';
import { pictureSet } from './test/fixtures/part-pictures.ts';
const set = await pictureSet(3);
mkdirSync('/tmp/ps/pics', { recursive: true });
const tiles = [];
for (const p of set) for (const [i, b] of [p.catalogue, ...p.photos].entries()) tiles.push({ input: await sharp(b).resize(160, 160).toBuffer(), left: i * 160, top: p.part * 160 });
await sharp({ create: { width: 640, height: 160 * set.length, channels: 3, background: '#fff' } }).composite(tiles).jpeg().toFile('/tmp/ps/pics/sheet.jpg');
