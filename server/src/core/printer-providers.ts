import { PrinterProvider as PROVIDERS, type PrinterProvider as ProviderName } from '@p8/contract/office';
import { createHash } from 'node:crypto';
import { feieText, type ReceiptLine } from '@p8/contract/print/receipt';
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
