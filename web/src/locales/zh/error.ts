import { errorCatalogue } from '@p8/contract/errors';

/** Error catalogue texts (namespace `error`), generated from the contract: `t('error.<key>')`. */
export default Object.fromEntries(Object.entries(errorCatalogue).map(([key, text]) => [key, text.zh])) as Record<string, string>;
