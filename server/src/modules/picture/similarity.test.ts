import { describe, expect, it } from 'vitest';
import { EMBEDDING_SIZE, hamming, normalise } from './embedder.ts';
import { buildIndex, calibrate, CALIBRATION, NEAR_DUPLICATE_SIMILARITY, rank } from './similarity.ts';
import { randomOf } from '../../../test/fixtures/part-pictures.ts';

/* The ranking's arithmetic without the model: random unit vectors stand in for embeddings. */

const random = randomOf(42);
const vector = () => normalise(Float32Array.from({ length: EMBEDDING_SIZE }, () => random() - 0.5));
const near = (v: Float32Array, noise: number) => normalise(Float32Array.from(v, (x) => x + (random() - 0.5) * noise));
const centredCosine = (q: Float32Array, x: Float32Array, m: Float32Array) => {
  const a = q.map((v, i) => v - m[i]);
  const b = x.map((v, i) => v - m[i]);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < EMBEDDING_SIZE; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
};

describe('picture similarity', () => {
  const pictures = Array.from({ length: 12 }, (_, i) => ({ recordId: 100 + (i % 10), url: `u${i}`, hash: i === 3 ? 'ffffffffffffffff' : '0000000000000000', vector: vector() }));
  const index = buildIndex(pictures);

  it('ranks by the centred cosine, each record by its best picture and the photo by its best turn', () => {
    const photo = near(pictures[4].vector, 0.02);
    const other = vector();
    const ranked = rank(index, [other, photo], null, 20, { nearDuplicates: false });
    expect(ranked[0]).toMatchObject({ recordId: 104, url: 'u4' });
    expect(ranked[0].cosine).toBeCloseTo(Math.max(centredCosine(photo, pictures[4].vector, index.mean), centredCosine(other, pictures[4].vector, index.mean)), 5);
    // Records 100 and 101 have two pictures each: one entry each, ten in all.
    expect(ranked).toHaveLength(10);
    expect(new Set(ranked.map((r) => r.recordId)).size).toBe(10);
    expect(ranked.map((r) => r.similarity)).toEqual([...ranked.map((r) => r.similarity)].sort((a, b) => b - a));
    expect(ranked[0].similarity).toBeGreaterThan(0.7);
    expect(ranked[1].similarity).toBeLessThan(0.7);
  });

  it('calibrates so that the fitted decision point reads 0.7', () => {
    expect(calibrate(-CALIBRATION.intercept / CALIBRATION.slope)).toBeCloseTo(0.7, 6);
    expect(calibrate(0)).toBeLessThan(0.1);
  });

  it('reads a near-duplicate by its difference hash at least as the same picture', () => {
    const unrelated = vector();
    const withHash = rank(index, [unrelated], 'fffffffffffffffe', 20);
    expect(withHash[0]).toMatchObject({ recordId: 103, similarity: NEAR_DUPLICATE_SIMILARITY });
    expect(rank(index, [unrelated], 'fffffffffffffffe', 20, { nearDuplicates: false }).find((r) => r.recordId === 103)!.similarity).toBeLessThan(0.7);
    expect(hamming('ffffffffffffffff', '0000000000000000')).toBe(64);
    expect(hamming('ffffffffffffffff', 'fffffffffffffffe')).toBe(1);
  });
});
