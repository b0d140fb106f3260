import { pictureSet } from './test/fixtures/part-pictures.ts';
import { embed, loadEmbedder, dHash, hamming } from './src/modules/picture/embedder.ts';
const t0 = Date.now(); await loadEmbedder(); console.log('load', Date.now() - t0);
const set = await pictureSet(3);
const cat = []; const ph = [];
let te = Date.now(); let n = 0;
for (const p of set) { cat.push({ part: p.part, e: await embed(p.catalogue), h: await dHash(p.catalogue) }); n++; for (const b of p.photos) { ph.push({ part: p.part, e: await embed(b), h: await dHash(b) }); n++; } }
console.log('embed ms/img', (Date.now() - te) / n);
const dot = (a, b) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * b[i]; return s; };
const same = [], diff = [], hs = [], hd = []; let r1 = 0, r5 = 0;
for (const q of ph) { const scored = cat.map((c) => ({ part: c.part, s: dot(q.e, c.e), h: hamming(q.h, c.h) })).sort((a, b) => b.s - a.s);
  const rank = scored.findIndex((x) => x.part === q.part); if (rank === 0) r1++; if (rank < 5) r5++;
  for (const x of scored) { (x.part === q.part ? same : diff).push(x.s); (x.part === q.part ? hs : hd).push(x.h); } }
const st = (a) => { a.sort((x, y) => x - y); return `min ${a[0].toFixed(3)} p10 ${a[Math.floor(a.length*0.1)].toFixed(3)} med ${a[Math.floor(a.length/2)].toFixed(3)} p90 ${a[Math.floor(a.length*0.9)].toFixed(3)} max ${a[a.length-1].toFixed(3)}`; };
console.log('same', st(same)); console.log('diff', st(diff)); console.log('r1', r1 / ph.length, 'r5', r5 / ph.length);
console.log('ham same', st(hs)); console.log('ham diff', st(hd));
