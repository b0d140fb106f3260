import { PrinterProvider as PROVIDERS, type PrinterProvider as ProviderName } from '@p8/contract/office';
import { createHash, randomUUID } from 'node:crypto';
import { feieText, yilianyunText, type ReceiptLine } from '@p8/contract/print/receipt';
import type { ErrorKey } from '@p8/contract/errors';
import { BizError } from './errors.ts';

/**
 * A cloud receipt-printer service (Feie, Yilianyun…). A real provider calls its service with the
 * credentials of our account there and turns its answers into catalogue keys (PrinterOffline,
 * PrinterOutOfPaper, PrinterSnOrKeyError, PrinterApiError…) — a provider never reports a success it did not get.
 * Bills print through the same providers, hence core.
 */
export interface PrinterProvider {
  readonly name: ProviderName;
  /** Prints a test page; throws a BizError with a printer key when the service refuses. */
  testPrint(printer: PrinterTarget): Promise<void>;
  /** Prints a receipt of `chars` characters a line (a bill through its receipt template), `printer.copies` times. */
  printReceipt(printer: PrinterTarget, lines: readonly ReceiptLine[], chars: number): Promise<void>;
}

export interface PrinterTarget {
  name: string;
  sn: string;
  printerKey: string;
  copies: number;
}

/** The provider used while no credentials for a service are configured: it says so, every time. */
export const unconfiguredProvider = (name: ProviderName): PrinterProvider => ({
  name,
  async testPrint() {
    throw new BizError('PrinterProviderNotConfigured', { additional: name });
  },
  async printReceipt() {
    throw new BizError('PrinterProviderNotConfigured', { additional: name });
  },
});

/**
 * What a Feie answer's message means, as a catalogued printer key: its messages are Chinese sentences
 * ("打印机编号错误", "设备离线"…), so they are matched by their words; anything else is a PrinterApiError.
 */
export function feieRefusal(message: string): ErrorKey {
  const m = message.toLowerCase();
  if (/离线|offline/.test(m)) return 'PrinterOffline';
  if (/缺纸|paper/.test(m)) return 'PrinterOutOfPaper';
  if (/已被绑定|已被添加|bound/.test(m)) return 'PrinterAlreadyBound';
  if (/编号|密钥|key|sn|未注册|签名|sig|user/.test(m)) return 'PrinterSnOrKeyError';
  return 'PrinterApiError';
}

/**
 * The Feie cloud printing service (feieyun.cn): every call a form POST to its open API with our account's
 * user and a signature (sha1 of user, UKEY and the time), answered `{ ret, msg, data }`; `ret` 0 is success.
 * `url` is the API's address (a fake in tests: nothing calls the internet there). `fetch` and the clock can
 * be given for tests.
 */
export function feieProvider(options: { url: string; user: string; ukey: string; timeoutMs?: number; now?: () => number }): PrinterProvider {
  const call = async (apiname: string, fields: Record<string, string>) => {
    const stime = String(Math.floor((options.now?.() ?? Date.now()) / 1000));
    const sig = createHash('sha1').update(`${options.user}${options.ukey}${stime}`).digest('hex');
    let body: { ret?: number; msg?: string; data?: unknown };
    try {
      const response = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ user: options.user, stime, sig, apiname, ...fields }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (!response.ok) throw new BizError('PrinterApiError', { additional: `feie HTTP ${response.status}` });
      body = (await response.json()) as typeof body;
    } catch (error) {
      if (error instanceof BizError) throw error;
      throw new BizError('PrinterApiError', { additional: 'feie' });
    }
    if (body.ret !== 0) throw new BizError(feieRefusal(String(body.msg ?? '')), { additional: String(body.msg ?? body.ret ?? '') });
    // An order accepted for a printer it could not reach says so in its data (Feie answers ok with a status).
    if (typeof body.data === 'string' && /离线|offline/i.test(body.data)) throw new BizError('PrinterOffline', { additional: body.data });
    return body.data;
  };
  const print = (printer: PrinterTarget, content: string) => call('Open_printMsg', { sn: printer.sn, content, times: String(Math.max(1, printer.copies)) });
  return {
    name: 'feie',
    async testPrint(printer) {
      await print(printer, feieText([{ type: 'text', text: printer.name, align: 'center', bold: true, big: false }, { type: 'text', text: 'OK', align: 'center', bold: false, big: false }], 32));
    },
    async printReceipt(printer, lines, chars) {
      await print(printer, feieText(lines, chars));
    },
  };
}

/**
 * What a Yilianyun answer's error means, as a catalogued printer key. Its open API answers
 * `{ error, error_description }` with numbered errors: 8 (the printer's details are wrong), 9 (it could not be
 * reached with them) and 35 (wrong terminal number or key) are the printer's number or key; 17 is a printer
 * bound to another account; our application's own errors (2 no such client, 5 wrong client or secret, 11 bad
 * signature, 14 / 18 a wrong or expired token, 19 an application not published…) and anything else are the
 * service's. A description that speaks of the printer being offline or out of paper says so.
 */
export function yilianyunRefusal(error: string, description: string): ErrorKey {
  if (/离线|offline/i.test(description)) return 'PrinterOffline';
  if (/缺纸|paper/i.test(description)) return 'PrinterOutOfPaper';
  if (error === '17') return 'PrinterAlreadyBound';
  if (error === '8' || error === '9' || error === '35') return 'PrinterSnOrKeyError';
  return 'PrinterApiError';
}

/**
 * The Yilianyun cloud printing service (易联云, open-api.10ss.net), as a self-built application ("自有应用"):
 * every call a form POST to its open API carrying our application's `client_id`, the time (`timestamp`, in
 * seconds), `sign` = md5(client_id + timestamp + client_secret) and a fresh UUID4 `id`, answered
 * `{ error, error_description, body }`; `error` "0" is success. The application's `access_token` comes from
 * `oauth/oauth` (grant client_credentials, scope all) and is kept until it expires or the service says it has
 * (error 18: asked again once). A printer prints once it is authorised into the application with its
 * terminal number and key (`printer/addprinter` machine_code + msign, done the first time it prints); before a
 * print its state is read (`printer/getprintstatus`: 0 offline, 2 out of paper) so that a print it would only
 * queue is refused as such; then `print/index` with the machine_code and the content in its markup
 * (`yilianyunText`, the printer's copies as `<MN>`). `url` is the API's address (a fake in tests: nothing calls the
 * internet there); the clock and the UUIDs can be given for tests.
 */
export function yilianyunProvider(options: { url: string; clientId: string; clientSecret: string; timeoutMs?: number; now?: () => number; uuid?: () => string }): PrinterProvider {
  const base = options.url.endsWith('/') ? options.url : `${options.url}/`;
  const now = () => options.now?.() ?? Date.now();
  let token: { value: string; until: number } | undefined;
  const authorised = new Set<string>();

  const post = async (path: string, fields: Record<string, string>) => {
    const timestamp = String(Math.floor(now() / 1000));
    const sign = createHash('md5').update(`${options.clientId}${timestamp}${options.clientSecret}`).digest('hex');
    let body: { error?: string | number; error_description?: string; body?: unknown };
    try {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: options.clientId, timestamp, sign, id: options.uuid?.() ?? randomUUID(), ...fields }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      if (!response.ok) throw new BizError('PrinterApiError', { additional: `yilianyun HTTP ${response.status}` });
      body = (await response.json()) as typeof body;
    } catch (error) {
      if (error instanceof BizError) throw error;
      throw new BizError('PrinterApiError', { additional: 'yilianyun' });
    }
    return { error: String(body.error ?? ''), description: String(body.error_description ?? ''), body: body.body };
  };
  const refuse = (answer: { error: string; description: string }): never => {
    throw new BizError(yilianyunRefusal(answer.error, answer.description), { additional: `yilianyun ${answer.error}: ${answer.description}` });
  };

  const accessToken = async (): Promise<string> => {
    if (token && token.until > now()) return token.value;
    const answer = await post('oauth/oauth', { grant_type: 'client_credentials', scope: 'all' });
    const granted = answer.body as { access_token?: string; expires_in?: number | string } | undefined;
    if (answer.error !== '0' || !granted?.access_token) return refuse(answer);
    // Kept a minute less than granted (tokens last 30 days).
    token = { value: granted.access_token, until: now() + Math.max(0, Number(granted.expires_in ?? 0) - 60) * 1000 };
    return token.value;
  };
  /** A call with our token; a token the service says is expired or wrong is asked for again, once. */
  const call = async (path: string, fields: Record<string, string>) => {
    for (let attempt = 0; ; attempt++) {
      const answer = await post(path, { access_token: await accessToken(), ...fields });
      if (answer.error === '0') return answer.body;
      if ((answer.error === '18' || answer.error === '14') && attempt === 0) {
        token = undefined;
        continue;
      }
      return refuse(answer);
    }
  };
  const print = async (printer: PrinterTarget, content: string) => {
    if (!authorised.has(printer.sn)) {
      await call('printer/addprinter', { machine_code: printer.sn, msign: printer.printerKey, print_name: printer.name });
      authorised.add(printer.sn);
    }
    const status = (await call('printer/getprintstatus', { machine_code: printer.sn })) as { state?: string | number } | undefined;
    const state = String(status?.state ?? '');
    if (state === '0') throw new BizError('PrinterOffline', { additional: printer.sn });
    if (state === '2') throw new BizError('PrinterOutOfPaper', { additional: printer.sn });
    await call('print/index', { machine_code: printer.sn, content, origin_id: randomUUID().replace(/-/g, '').slice(0, 32) });
  };
  return {
    name: 'yilianyun',
    async testPrint(printer) {
      await print(printer, yilianyunText([{ type: 'text', text: printer.name, align: 'center', bold: true, big: false }, { type: 'text', text: 'OK', align: 'center', bold: false, big: false }], 32, printer.copies));
    },
    async printReceipt(printer, lines, chars) {
      await print(printer, yilianyunText(lines, chars, printer.copies));
    },
  };
}

/** The printer providers of one app (`app.printerProviders`): every known service, unconfigured until plugged in. */
export class PrinterProviders {
  private readonly providers = new Map<ProviderName, PrinterProvider>(PROVIDERS.map((name) => [name, unconfiguredProvider(name)]));

  /** Plugs a configured provider in (at start, from its credentials; tests plug fakes). */
  register(provider: PrinterProvider): void {
    this.providers.set(provider.name, provider);
  }

  get(name: string): PrinterProvider {
    const provider = this.providers.get(name as ProviderName);
    if (!provider) throw new BizError('PrinterApiError', { additional: name });
    return provider;
  }
}
