import { firstErrors } from '@p8/contract/errors-first';

/**
 * The error texts of the first page (namespace `error`): transport, sign-in, session — `t('error.<key>')`.
 * The whole catalogue is added on the first other error or with the signed-in screens (`loadErrorTexts`).
 */
export default Object.fromEntries(Object.entries(firstErrors).map(([key, text]) => [key, text.en])) as Record<string, string>;
