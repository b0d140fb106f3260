/**
 * Colour values of the colour input: a hex colour is six hex digits with an optional
 * leading #; an RGB colour is three parts of 1 to 3 digits, each at most 255.
 */
const HEX = /^#?([0-9a-fA-F]{6})$/;
const RGB = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i;

export function isHexColor(value: string): boolean {
  return HEX.test(value.trim());
}

/** `#RRGGBB` (upper case) or null when the text is not a six-digit hex colour. */
export function normalizeHex(value: string): string | null {
  const match = HEX.exec(value.trim());
  return match ? `#${match[1].toUpperCase()}` : null;
}

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** RGB parts from `rgb(r, g, b)`: 1 to 3 digits each, 0–255; null otherwise. */
export function parseRgb(value: string): Rgb | null {
  const match = RGB.exec(value.trim());
  if (!match) return null;
  const [r, g, b] = [match[1], match[2], match[3]].map(Number);
  if ([r, g, b].some((n) => n > 255)) return null;
  return { r, g, b };
}

export function hexToRgb(hex: string): Rgb | null {
  const normal = normalizeHex(hex);
  if (!normal) return null;
  const n = Number.parseInt(normal.slice(1), 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

export function rgbToHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('').toUpperCase()}`;
}

/** Hex or RGB text to `#RRGGBB`; null for anything else (the caller warns "wrong hex value"). */
export function parseColor(value: string): string | null {
  const hex = normalizeHex(value);
  if (hex) return hex;
  const rgb = parseRgb(value);
  return rgb ? rgbToHex(rgb) : null;
}
