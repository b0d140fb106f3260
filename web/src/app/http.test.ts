import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_LOADING_HEADER } from '@p8/contract/envelope';
import { errorCatalogue } from '@p8/contract/errors';
import { useAuthStore } from '../stores/auth.ts';
import { useGlobalStore } from '../stores/global.ts';
import { useMenuStore } from '../stores/menu.ts';
import { feedback } from './feedback.ts';
import { buildQuery, fileNameFrom, http, httpStatusKey, isHttpError } from './http.ts';
import { useLoadingStore } from './loading.ts';
import { registerNavigator } from './navigate.ts';

/** The HTTP client's envelope rules, against a stubbed fetch. */
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const toasts: string[] = [];
const navigations: string[] = [];
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  toasts.length = 0;
  navigations.length = 0;
  feedback.message = { error: (arg: { content: string }) => toasts.push(String(arg.content)) } as unknown as typeof feedback.message;
  registerNavigator((to) => navigations.push(to), () => '/system/role');
  useGlobalStore.setState({ language: 'en' });
  useAuthStore.setState({ token: 'tok', userInfo: null });
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('http client', () => {
  it('resolves the data of a status-0 envelope and sends token, language and JSON', async () => {
    fetchMock.mockResolvedValue(json({ status: 0, message: 'Success', data: { id: 1 } }));
    await expect(http.post('/x', { a: 1 })).resolves.toEqual({ id: 1 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/x');
    expect(init.credentials).toBe('include');
    expect(init.headers.Authorization).toBe('Bearer tok');
    expect(init.headers['Accept-Language']).toBe('en');
    expect(init.headers['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"a":1}');
  });

  it('sends DELETE parameters in the JSON body', async () => {
    fetchMock.mockResolvedValue(json({ status: 0, message: 'Success', data: null }));
    await http.delete('/admin/security/role', { ids: [1, 2] });
    const [, init] = fetchMock.mock.calls[0]!;
    expect(init.method).toBe('DELETE');
    expect(init.body).toBe('{"ids":[1,2]}');
  });

  it('returns data and pagination of a list', async () => {
    fetchMock.mockResolvedValue(json({ status: 0, message: 'Success', data: [1, 2], pagination: { current: 1, pageSize: 10, total: 2 } }));
    await expect(http.list('/l', { current: 1 })).resolves.toEqual({ data: [1, 2], pagination: { current: 1, pageSize: 10, total: 2 } });
  });

  it('toasts the translated message with the additional detail and rejects', async () => {
    fetchMock.mockResolvedValue(json({ status: 40001, message: 'NameRepeat', additional: 'Admin', data: null }, 400));
    const error = await http.post('/x').catch((e: unknown) => e);
    expect(isHttpError(error) && error.key).toBe('NameRepeat');
    expect(toasts).toEqual([`${errorCatalogue.NameRepeat.en}: Admin`]);
  });

  it('prefers the remark, and stays quiet when the caller handles the error', async () => {
    fetchMock.mockResolvedValueOnce(json({ status: 500, message: 'Error', remark: 'Custom text', data: null }, 500));
    await expect(http.get('/x')).rejects.toThrow('Custom text');
    fetchMock.mockResolvedValueOnce(json({ status: 500, message: 'Error', data: null }, 500));
    await expect(http.get('/x', undefined, { silent: true })).rejects.toThrow('Operation failed');
    expect(toasts).toEqual(['Custom text']);
  });

  it('on 40100 clears the session and goes to login', async () => {
    useMenuStore.setState({ loaded: true });
    fetchMock.mockResolvedValue(json({ status: 40100, message: 'Unauthorized', data: null }, 401));
    await expect(http.get('/admin/current/detail')).rejects.toBeDefined();
    expect(useAuthStore.getState().token).toBe('');
    expect(useMenuStore.getState().loaded).toBe(false);
    expect(navigations).toEqual(['/login?redirect=%2Fsystem%2Frole']);
    expect(toasts).toEqual(['Your login has expired, please log in again']);
  });

  it('maps HTTP statuses without an envelope', async () => {
    fetchMock.mockResolvedValue(new Response('<html>', { status: 502 }));
    await expect(http.get('/x')).rejects.toThrow('Internal server error');
    expect(httpStatusKey(405)).toBe('BadRequest');
    expect(httpStatusKey(401)).toBe('NotLoggedIn');
    expect(httpStatusKey(404)).toBe('FileNotFound');
    expect(httpStatusKey(504)).toBe('TimeOut');
  });

  it('times out with status 600000', async () => {
    fetchMock.mockImplementation((_url: string, init: RequestInit) => new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted')))));
    const error = await http.get('/slow', undefined, { timeout: 20 }).catch((e: unknown) => e);
    expect(isHttpError(error) && error.status).toBe(600000);
    expect(toasts).toEqual(['Request timed out, please try again later']);
  });

  it('counts the loading overlay, except for no-loading calls', async () => {
    let release!: () => void;
    fetchMock.mockImplementation(() => new Promise((resolve) => (release = () => resolve(json({ status: 0, message: 'Success', data: 1 })))));
    const first = http.get('/a');
    expect(useLoadingStore.getState().pending).toBe(1);
    const releaseFirst = release;
    const quiet = http.get('/b', undefined, { noLoading: true });
    expect(useLoadingStore.getState().pending).toBe(1);
    expect(fetchMock.mock.calls[1]![1].headers[NO_LOADING_HEADER]).toBe('1');
    release();
    releaseFirst();
    await Promise.all([first, quiet]);
    expect(useLoadingStore.getState().pending).toBe(0);
  });

  it('builds query strings and reads download file names', () => {
    expect(buildQuery({ a: 1, b: '', c: undefined, notInId: [1, 2] })).toBe('?a=1&notInId=1%2C2');
    expect(fileNameFrom(`attachment; filename*=UTF-8''%E7%89%A9%E6%96%99.xlsx`)).toBe('物料.xlsx');
    expect(fileNameFrom('attachment; filename="stock.xlsx"')).toBe('stock.xlsx');
    expect(fileNameFrom(null, 'x.bin')).toBe('x.bin');
  });
});
