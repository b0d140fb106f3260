import { expect } from 'vitest';
import { recordCreatePath, type Caller } from './basic-fixtures.ts';
import type { Reply } from './harness.ts';

/** The fixtures' caller (basic-fixtures.ts) over real HTTP, for tests against server processes. */
export function httpCaller(baseUrl: string, token: string, adminId: number): Caller {
  const send = async <T>(method: string, url: string, body?: unknown): Promise<Reply<T>> => {
    const res = await fetch(baseUrl + url, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { httpStatus: res.status, body: (await res.json()) as Reply<T>['body'], headers: Object.fromEntries(res.headers) };
  };
  const self: Caller = {
    token,
    adminId,
    get: <T>(url: string) => send<T>('GET', url),
    post: <T>(url: string, body?: unknown) => send<T>('POST', url, body ?? {}),
    put: <T>(url: string, body?: unknown) => send<T>('PUT', url, body ?? {}),
    del: <T>(url: string, body?: unknown) => send<T>('DELETE', url, body ?? {}),
    async create(record, body) {
      const res = await self.post<{ id: number }>(recordCreatePath(record), body);
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ status: 0 });
      return res.body.data.id;
    },
    upload: () => Promise.reject(new Error('upload: not over plain HTTP here')),
    download: () => Promise.reject(new Error('download: not over plain HTTP here')),
  };
  return self;
}

/** Signs in by name over HTTP; the token. */
export async function signInHttp(baseUrl: string, name: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/admin/name`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password }) });
  const body = (await res.json()) as { status: number; message: string; data: { token: string } };
  if (body.status !== 0) throw new Error(`sign-in of ${name} failed: ${body.message}`);
  return body.data.token;
}
