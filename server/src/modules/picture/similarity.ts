import { EMBEDDING_SIZE, hamming } from './embedder.ts';

/*
 * How a photo is compared with the indexed pictures (docs/picture-search.md, "Similarity"):
 *
 * 1. Centred cosine. Every picture's embedding shares a large common part (what the network sees in any
 *    photo), so raw cosines of different parts reach 0.8–0.96 and say little. The index's own mean
 *    embedding is taken away from both sides before the cosine: what is left is what tells the pictures
 *    apart. With the mean m and unit vectors q, x:
 *        cos_c = (q·x − q·m − x·m + m·m) / (|q − m| · |x − m|),  |v − m|² = 1 − 2 v·m + m·m,
 *    so one pass of dot products over the index does it (x·m and |x − m| are kept with the index).
 * 2. Turns. A part on a bench lies any way round: the photo is embedded as taken and turned by 90°, 180°
 *    and 270°, and each indexed picture scores its best turn.
 * 3. Calibration. The centred cosine is mapped to a similarity by a logistic curve fitted on the fixture set
 *    of part pictures (server/test/fixtures/part-pictures.ts; bench/picture-search.ts refits and prints
 *    these constants): same part vs another part, classes weighted equally, shifted so that the curve's
 *    decision point reads 0.7 — the default threshold separates the same part from another.
 * 4. Near-duplicates. A picture whose difference hash is within NEAR_DUPLICATE_BITS of the photo's is the
 *    same picture (re-saved, resized, a little lighter): it reads at least NEAR_DUPLICATE_SIMILARITY.
 */

/** Fitted on the fixture set's views 1–3 against their catalogue pictures (bench/picture-search.ts). */
export const CALIBRATION = { slope: 2.85, intercept: -5.08 };
/** The similarity the fitted decision point reads as: the default threshold. */
const DECISION = 0.7;
const DECISION_SHIFT = Math.log(DECISION / (1 - DECISION));
export const NEAR_DUPLICATE_BITS = 4;
export const NEAR_DUPLICATE_SIMILARITY = 0.99;

export function calibrate(centredCosine: number, calibration = CALIBRATION): number {
  return 1 / (1 + Math.exp(-(calibration.slope * centredCosine + calibration.intercept + DECISION_SHIFT)));
}

/** The index of one target held for ranking: every picture's unit embedding, in one block. */
export interface PictureIndex {
  size: number;
  recordIds: Float64Array;
  urls: string[];
  hashes: string[];
  /** size × EMBEDDING_SIZE, row by row. */
  vectors: Float32Array;
  mean: Float32Array;
  meanSquare: number;
  /** x·m per picture. */
  dotMean: Float32Array;
  /** |x − m| per picture. */
  centredNorm: Float32Array;
}

export interface IndexedPicture {
  recordId: number;
  url: string;
  hash: string;
  vector: Float32Array;
}

export function buildIndex(pictures: readonly IndexedPicture[]): PictureIndex {
  const size = pictures.length;
  const vectors = new Float32Array(size * EMBEDDING_SIZE);
  const mean = new Float32Array(EMBEDDING_SIZE);
  pictures.forEach((p, row) => {
    vectors.set(p.vector, row * EMBEDDING_SIZE);
    for (let i = 0; i < EMBEDDING_SIZE; i++) mean[i] += p.vector[i] / size;
  });
  let meanSquare = 0;
  for (const v of mean) meanSquare += v * v;
  const dotMean = new Float32Array(size);
  const centredNorm = new Float32Array(size);
  for (let row = 0; row < size; row++) {
    const d = dot(vectors, row * EMBEDDING_SIZE, mean);
    dotMean[row] = d;
    centredNorm[row] = Math.sqrt(Math.max(1e-12, 1 - 2 * d + meanSquare));
  }
  return {
    size,
    recordIds: Float64Array.from(pictures, (p) => p.recordId),
    urls: pictures.map((p) => p.url),
    hashes: pictures.map((p) => p.hash),
    vectors,
    mean,
    meanSquare,
    dotMean,
    centredNorm,
  };
}

function dot(block: Float32Array, offset: number, v: Float32Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let i = 0; i < EMBEDDING_SIZE; i += 4) {
    s0 += block[offset + i] * v[i];
    s1 += block[offset + i + 1] * v[i + 1];
    s2 += block[offset + i + 2] * v[i + 2];
    s3 += block[offset + i + 3] * v[i + 3];
  }
  return s0 + s1 + s2 + s3;
}

/** Four dot products of one indexed picture in one pass over it (the search's four turns). */
function dots4(block: Float32Array, offset: number, a: Float32Array, b: Float32Array, c: Float32Array, d: Float32Array, out: Float64Array): void {
  let sa = 0;
  let sb = 0;
  let sc = 0;
  let sd = 0;
  for (let i = 0; i < EMBEDDING_SIZE; i++) {
    const x = block[offset + i];
    sa += x * a[i];
    sb += x * b[i];
    sc += x * c[i];
    sd += x * d[i];
  }
  out[0] = sa;
  out[1] = sb;
  out[2] = sc;
  out[3] = sd;
}

export interface RankedRecord {
  recordId: number;
  url: string;
  similarity: number;
  /** The centred cosine it came from (for the bench). */
  cosine: number;
  /** What was calibrated: the cosine's standing among the photo's cosines with every indexed picture. */
  score: number;
}

/**
 * The records best like the photo — its embeddings `turns` (as taken, then turned), `hash` its dHash — best
 * first, each by its best picture, at most `limit`.
 */
export function rank(index: PictureIndex, turns: readonly Float32Array[], hash: string | null, limit: number, options: { nearDuplicates?: boolean; calibration?: typeof CALIBRATION; score?: 'cosine' | 'standout' } = {}): RankedRecord[] {
  const { mean, meanSquare } = index;
  const prepared = turns.map((q) => {
    let qm = 0;
    for (let i = 0; i < EMBEDDING_SIZE; i++) qm += q[i] * mean[i];
    return { q, qm, norm: Math.sqrt(Math.max(1e-12, 1 - 2 * qm + meanSquare)) };
  });
  const cosines = new Float64Array(index.size);
  const dots = new Float64Array(prepared.length);
  for (let row = 0; row < index.size; row++) {
    const offset = row * EMBEDDING_SIZE;
    if (prepared.length === 4) dots4(index.vectors, offset, prepared[0].q, prepared[1].q, prepared[2].q, prepared[3].q, dots);
    else prepared.forEach((p, i) => (dots[i] = dot(index.vectors, offset, p.q)));
    let cosine = -1;
    prepared.forEach(({ qm, norm }, i) => {
      const c = (dots[i] - qm - index.dotMean[row] + meanSquare) / (norm * index.centredNorm[row]);
      if (c > cosine) cosine = c;
    });
    cosines[row] = cosine;
  }
  // How far each picture stands out from the photo's likeness to the whole index (in its standard deviations).
  let sum = 0;
  let square = 0;
  for (const c of cosines) {
    sum += c;
    square += c * c;
  }
  const average = sum / index.size;
  const spread = Math.sqrt(Math.max(1e-9, square / index.size - average * average));
  const best = new Map<number, RankedRecord>();
  for (let row = 0; row < index.size; row++) {
    const cosine = cosines[row];
    const score = options.score === 'cosine' ? cosine : (cosine - average) / spread;
    let similarity = calibrate(score, options.calibration);
    if (hash && options.nearDuplicates !== false && hamming(hash, index.hashes[row]) <= NEAR_DUPLICATE_BITS) similarity = Math.max(similarity, NEAR_DUPLICATE_SIMILARITY);
    const recordId = index.recordIds[row];
    const seen = best.get(recordId);
    if (!seen || seen.similarity < similarity) best.set(recordId, { recordId, url: index.urls[row], similarity, cosine, score });
  }
  return [...best.values()].sort((a, b) => b.similarity - a.similarity || b.score - a.score || a.recordId - b.recordId).slice(0, limit);
}
