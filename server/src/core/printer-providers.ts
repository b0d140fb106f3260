import { PrinterProvider as PROVIDERS, type PrinterProvider as ProviderName } from '@p8/contract/office';
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
  testPrint(printer: { name: string; sn: string; printerKey: string; copies: number }): Promise<void>;
}

/** The provider used while no credentials for a service are configured: it says so, every time. */
export const unconfiguredProvider = (name: ProviderName): PrinterProvider => ({
  name,
  async testPrint() {
    throw new BizError('PrinterProviderNotConfigured', { additional: name });
  },
});

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
