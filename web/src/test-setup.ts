/**
 * The web's unit tests run under Node, which has no Web Storage: the stores that persist themselves
 * (session, tabs) would warn on every change that their storage is unavailable, and would not be tested
 * persisting. An in-memory `localStorage` / `sessionStorage` stands in for the browser's (zustand reads
 * `window.localStorage`, so `window` is the global object here, as in a browser).
 */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

if (!('window' in globalThis)) Object.defineProperty(globalThis, 'window', { value: globalThis, configurable: true });
for (const name of ['localStorage', 'sessionStorage'] as const) {
  if (!(name in globalThis)) Object.defineProperty(globalThis, name, { value: new MemoryStorage(), configurable: true });
}
