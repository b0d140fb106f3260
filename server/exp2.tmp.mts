import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { MobileNetV2Model } from 'nsfwjs/models/mobilenet_v2';
import sharp from 'sharp';
import { pictureSet } from './test/fixtures/part-pictures.ts';
const require = createRequire(import.meta.url);
setWasmPaths(require.resolve('@tensorflow/tfjs-backend-wasm').replace(/[^/]+$/, ''));
await tf.setBackend('wasm'); await tf.ready();
const mj: any = ((await (MobileNetV2Model as any).modelJson()) as any).default; const wd: any = await (MobileNetV2Model as any).weightBundles[0]();
const all = Buffer.from(typeof wd === 'string' ? wd : wd.default, 'base64');
const full = await tf.loadLayersModel(tf.io.fromMemory({ modelTopology: mj.modelTopology, weightSpecs: mj.weightsManifest.flatMap((g: any) => g.weights), weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) }));
const names = ['out_relu', 'block_16_project_BN', 'block_13_expand_relu', 'block_12_add', 'block_15_add'];
const m = tf.model({ inputs: full.inputs, outputs: names.map((n) => full.getLayer(n).output as any) });
const px = async (b: Buffer, rot = 0) => sharp(b).rotate(rot, { background: '#fff' }).flatten({ background: '#fff' }).resize(224, 224, { fit: 'contain', background: '#fff' }).removeAlpha().raw().toBuffer();
async function feats(b: Buffer, rot = 0) {
  const raw = await px(b, rot);
  return tf.tidy(() => { const x = tf.tensor3d(new Uint8Array(raw), [224, 224, 3], 'int32').toFloat().div(255).expandDims(0); const outs = m.predict(x) as tf.Tensor[];
    const r: Record<string, Float32Array> = {};
    names.forEach((n, i) => { r[n + ':avg'] = outs[i].mean([1, 2]).dataSync() as Float32Array; r[n + ':max'] = outs[i].max([1, 2]).dataSync() as Float32Array; r[n + ':gem'] = outs[i].relu().add(1e-6).pow(3).mean([1, 2]).pow(1 / 3).dataSync() as Float32Array; });
    return r; });
}
const norm = (v: Float32Array) => { let s = 0; for (const x of v) s += x * x; s = Math.sqrt(s) || 1; return Float32Array.from(v, (x) => x / s); };
const set = await pictureSet(3);
const cat: any[] = [], ph: any[] = [];
for (const p of set) { const rots = await Promise.all([0, 90, 180, 270].map((r) => feats(p.catalogue, r))); cat.push({ part: p.part, f: rots[0], rots }); for (const b of p.photos) ph.push({ part: p.part, f: await feats(b) }); }
const dot = (a, b) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * b[i]; return s; };
function evalKey(k: string, center: boolean, rot: boolean) {
  let mean: Float32Array | null = null;
  if (center) { const vs = cat.map((c) => norm(c.f[k])); mean = new Float32Array(vs[0].length); for (const v of vs) for (let i = 0; i < v.length; i++) mean[i] += v[i] / vs.length; }
  const prep = (v: Float32Array) => { let x = norm(v); if (mean) x = norm(Float32Array.from(x, (y, i) => y - mean![i])); return x; };
  const C = cat.map((c) => ({ part: c.part, es: (rot ? c.rots : [c.f]).map((f: any) => prep(f[k])) }));
  let r1 = 0, r5 = 0; const same: number[] = [], diff: number[] = [];
  for (const q of ph) { const e = prep(q.f[k]); const sc = C.map((c) => ({ part: c.part, s: Math.max(...c.es.map((x: Float32Array) => dot(e, x))) })).sort((a, b) => b.s - a.s);
    const rank = sc.findIndex((x) => x.part === q.part); if (rank === 0) r1++; if (rank < 5) r5++; for (const x of sc) (x.part === q.part ? same : diff).push(x.s); }
  same.sort((a, b) => a - b); diff.sort((a, b) => a - b);
  // best threshold accuracy
  let best = 0, bt = 0; for (const t of [...same, ...diff]) { const acc = (same.filter((s) => s >= t).length / same.length + diff.filter((d) => d < t).length / diff.length) / 2; if (acc > best) { best = acc; bt = t; } }
  console.log(k.padEnd(28), center ? 'C' : '-', rot ? 'R' : '-', 'r1', (r1 / ph.length).toFixed(2), 'r5', (r5 / ph.length).toFixed(2), 'bal.acc', best.toFixed(3), 't', bt.toFixed(3), 'diffmax', diff.at(-1)!.toFixed(3), 'same p10', same[Math.floor(same.length * 0.1)].toFixed(3));
}
for (const k of Object.keys(cat[0].f)) for (const c of [false, true]) for (const r of [false, true]) evalKey(k, c, r);
