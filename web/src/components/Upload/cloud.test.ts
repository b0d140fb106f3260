import { describe, expect, it } from 'vitest';
import { cloudKey, cloudUrl, DEFAULT_CLOUD_UPLOAD_URL, isTokenUsable, timestampOf, tokenExpiresAt, toCloudToken } from './cloud.ts';

const NOW = Date.UTC(2026, 2, 1, 12, 0, 0);

describe('cloud upload token', () => {
  it('stops using a token 10 s before it expires', () => {
    expect(tokenExpiresAt(3600, NOW)).toBe(NOW + 3590 * 1000);
  });

  it('reads an expiry that is a Unix time in seconds as that time', () => {
    const unix = Math.floor(NOW / 1000) + 600;
    expect(tokenExpiresAt(unix, NOW)).toBe(unix * 1000 - 10_000);
  });

  it('treats a missing or expired token as unusable', () => {
    const token = toCloudToken({ token: 't', domain: 'cdn.example/', expired: 60 }, NOW);
    expect(isTokenUsable(token, NOW)).toBe(true);
    expect(isTokenUsable(token, NOW + 49_999)).toBe(true);
    expect(isTokenUsable(token, NOW + 50_000)).toBe(false);
    expect(isTokenUsable(null, NOW)).toBe(false);
    expect(isTokenUsable(toCloudToken({ token: 't', domain: 'd', expired: 0 }, NOW), NOW)).toBe(false);
    expect(isTokenUsable({ ...token, token: '' }, NOW)).toBe(false);
  });

  it('uses the default upload endpoint unless the server names one', () => {
    expect(toCloudToken({ token: 't', domain: 'd', expired: 60 }, NOW).uploadUrl).toBe(DEFAULT_CLOUD_UPLOAD_URL);
    expect(toCloudToken({ token: 't', domain: 'd', expired: 60, uploadUrl: 'https://up-z2.example' }, NOW).uploadUrl).toBe('https://up-z2.example');
  });
});

describe('cloud object key', () => {
  const at = new Date(2026, 2, 1, 9, 5, 7);

  it('is tenantId_YYYYMMDDHHmmss.ext', () => {
    expect(timestampOf(at)).toBe('20260301090507');
    expect(cloudKey(12, at, 'Photo.JPG')).toBe('12_20260301090507.jpg');
  });

  it('adds a counter for a second file in the same second, and handles names without extension', () => {
    expect(cloudKey(12, at, 'a.png', 2)).toBe('12_20260301090507_2.png');
    expect(cloudKey(12, at, 'README')).toBe('12_20260301090507');
  });

  it('makes the url from the domain and the key', () => {
    expect(cloudUrl('https://cdn.example/', '12_1.png')).toBe('https://cdn.example/12_1.png');
    expect(cloudUrl('cdn.example', '12_1.png')).toBe('https://cdn.example/12_1.png');
  });
});
