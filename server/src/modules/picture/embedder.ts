import { createRequire } from 'node:module';
import sharp from 'sharp';

/*
 * The picture embedder: MobileNetV2 (the weights the `nsfwjs` package ships inside itself, ImageNet features
 * fine-tuned for its classes) run by TensorFlow.js on the WebAssembly backend — on the CPU, with nothing
 * fetched at run time (the .wasm files are read from node_modules). A picture's embedding is the network's
 * global-pooled features before its classifier (the `flatten_1` layer, 1,280 values), L2-normalised, so the
 * dot product of two embeddings is their cosine.
 *
 * The model is loaded once per process, on first use (≈2 s), and embeddings are computed one picture at a
 * time (≈0.1–0.6 s each on one core): callers run them in background jobs, never many in a request.
 */

export const EMBEDDING_SIZE = 1280;
const INPUT_SIZE = 224;

type Tf = typeof import('@tensorflow/tfjs');
interface Loaded {
  tf: Tf;
  model: import('@tensorflow/tfjs').LayersModel;
}

let loading: Promise<Loaded> | undefined;
/** One embedding at a time: the wasm backend is single-threaded, and concurrent calls would only queue inside it. */
let queue: Promise<unknown> = Promise.resolve();

async function load(): Promise<Loaded> {
  const require = createRequire(import.meta.url);
  // The wasm backend installs process handlers of its own (Emscripten's): they are taken away again, so the
  // server's own handling of uncaught errors stays as it was.
  const before = { uncaughtException: process.listeners('uncaughtException'), unhandledRejection: process.listeners('unhandledRejection') };
  const tf = await import('@tensorflow/tfjs');
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  wasm.setWasmPaths(require.resolve('@tensorflow/tfjs-backend-wasm').replace(/[^/\\]+$/, ''));
  await tf.setBackend('wasm');
  await tf.ready();
  for (const listener of process.listeners('uncaughtException')) if (!before.uncaughtException.includes(listener)) process.removeListener('uncaughtException', listener);
  for (const listener of process.listeners('unhandledRejection')) if (!before.unhandledRejection.includes(listener)) process.removeListener('unhandledRejection', listener);
  const { MobileNetV2Model } = (await import('nsfwjs/models/mobilenet_v2')) as unknown as {
    MobileNetV2Model: { modelJson: () => Promise<{ default?: ModelJson } & ModelJson>; weightBundles: Array<() => Promise<{ default?: string } | string>> };
  };
  const jsonModule = await MobileNetV2Model.modelJson();
  const json = jsonModule.default ?? jsonModule;
  const shards = await Promise.all(MobileNetV2Model.weightBundles.map(async (bundle) => {
    const m = await bundle();
    return Buffer.from(typeof m === 'string' ? m : (m.default ?? ''), 'base64');
  }));
  const weights = Buffer.concat(shards);
  const full = await tf.loadLayersModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((group) => group.weights) as never,
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
    }),
  );
  const features = full.getLayer('flatten_1');
  const model = tf.model({ inputs: full.inputs, outputs: features.output as never });
  return { tf, model };
}

interface ModelJson {
  modelTopology: object;
  weightsManifest: Array<{ paths: string[]; weights: unknown[] }>;
}

/** Loads the model now (a job does before its first picture, so the first picture's time is its own). */
export function loadEmbedder(): Promise<void> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading.then(() => undefined);
}

/** The picture decoded, flattened onto white (transparent parts), and fitted whole into the network's square (RGB). */
async function pixels(image: Buffer): Promise<Buffer> {
  return sharp(image, { failOn: 'error', limitInputPixels: 50_000_000 })
    .autoOrient()
    .flatten({ background: '#ffffff' })
    .resize(INPUT_SIZE, INPUT_SIZE, { fit: 'contain', background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer();
}

/** The square RGB picture turned clockwise by `turn` (0, 90, 180 or 270) degrees. */
function turned(raw: Buffer, turn: number): Buffer {
  if (!turn) return raw;
  const n = INPUT_SIZE;
  const out = Buffer.alloc(raw.length);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const [tx, ty] = turn === 90 ? [n - 1 - y, x] : turn === 180 ? [n - 1 - x, n - 1 - y] : [y, n - 1 - x];
      raw.copy(out, (ty * n + tx) * 3, (y * n + x) * 3, (y * n + x) * 3 + 3);
    }
  }
  return out;
}

/** The picture's embedding: L2-normalised, length EMBEDDING_SIZE. */
export async function embed(image: Buffer): Promise<Float32Array> {
  return (await embedTurns(image, [0]))[0];
}

/** The picture's embeddings turned by each of `turns` degrees (one batch through the network). */
export async function embedTurns(image: Buffer, turns: readonly number[] = [0, 90, 180, 270]): Promise<Float32Array[]> {
  const upright = await pixels(image);
  const raws = turns.map((turn) => turned(upright, turn));
  await loadEmbedder();
  const { tf, model } = await loading!;
  const run = queue.then(() => {
    const values = tf.tidy(() => {
      const batch = Buffer.concat(raws);
      const input = tf.tensor4d(new Uint8Array(batch.buffer, batch.byteOffset, batch.byteLength), [raws.length, INPUT_SIZE, INPUT_SIZE, 3], 'int32').toFloat().div(255);
      return (model.predict(input) as import('@tensorflow/tfjs').Tensor).dataSync() as Float32Array;
    });
    return raws.map((_, i) => normalise(values.slice(i * EMBEDDING_SIZE, (i + 1) * EMBEDDING_SIZE)));
  });
  queue = run.catch(() => undefined);
  return run;
}

export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return vector;
}

/**
 * The picture's difference hash (dHash, 64 bits as 16 hex digits): grey, 9×8, each bit whether a pixel is
 * brighter than its right neighbour. Near-duplicates (the same photo re-encoded, resized, slightly brighter)
 * differ in a few bits; different pictures in about half.
 */
export async function dHash(image: Buffer): Promise<string> {
  const grey = await sharp(image, { failOn: 'error', limitInputPixels: 50_000_000 }).autoOrient().flatten({ background: '#ffffff' }).greyscale().resize(9, 8, { fit: 'fill' }).raw().toBuffer();
  let hex = '';
  for (let row = 0; row < 8; row++) {
    let byte = 0;
    for (let col = 0; col < 8; col++) byte = (byte << 1) | (grey[row * 9 + col] > grey[row * 9 + col + 1] ? 1 : 0);
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

const POPCOUNT = Array.from({ length: 256 }, (_, n) => n.toString(2).replace(/0/g, '').length);

/** Bits in which two dHashes differ (0–64). */
export function hamming(a: string, b: string): number {
  let bits = 0;
  for (let i = 0; i < 16; i += 2) bits += POPCOUNT[parseInt(a.slice(i, i + 2), 16) ^ parseInt(b.slice(i, i + 2), 16)];
  return bits;
}

/** An embedding as stored (float32, little-endian) and back. */
export const embeddingBytes = (vector: Float32Array): Buffer => {
  const out = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) out.writeFloatLE(vector[i], i * 4);
  return out;
};
export const embeddingOf = (bytes: Uint8Array): Float32Array => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
};
