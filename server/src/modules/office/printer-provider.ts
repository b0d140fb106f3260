import { PrinterProvider as PROVIDERS, type PrinterProvider as ProviderName } from '@p8/contract/office';
import { BizError } from '../../core/errors.ts';

/**
 * A cloud receipt-printer service (Feie, Yilianyun…). A real provider calls its service with the
 * credentials of our account there and turns its answers into catalogue keys (PrinterOffline,
 * PrinterOutOfPaper, PrinterSnOrKeyError, PrinterApiError…) — a provider never reports a success it did not get.
 */
export interface PrinterProvider {
  readonly name: ProviderName;
  /** Prints a test page; throws a BizError with a printer key when the service refuses. */
  testPrint(printer: { name: string; sn: string; printerKey: string; copies: number }): Promise<void>;
}

/** The provider used while no credentials for a service are configured: it says so, every time. */
export const unconfiguredProvider = (name: ProviderName): PrinterProvider => ({
  name,
  async testPrint() {
    throw new BizError('PrinterProviderNotConfigured', { additional: name });
  },
});

const providers = new Map<ProviderName, PrinterProvider>(PROVIDERS.map((name) => [name, unconfiguredProvider(name)]));

/** Plugs a configured provider in (at start, from its credentials; tests plug fakes). */
export function registerPrinterProvider(provider: PrinterProvider) {
  providers.set(provider.name, provider);
}

export function printerProvider(name: string): PrinterProvider {
  const provider = providers.get(name as ProviderName);
  if (!provider) throw new BizError('PrinterApiError', { additional: name });
  return provider;
}

/** A printer key as the client may see it: at most the first and last two characters. */
export function maskKey(key: string): string {
  if (!key) return '';
  if (key.length <= 6) return '*'.repeat(key.length);
  return `${key.slice(0, 2)}${'*'.repeat(Math.min(key.length - 4, 12))}${key.slice(-2)}`;
}
