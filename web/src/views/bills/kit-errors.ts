import { errorText, isHttpError } from '../../app/http.ts';
import { feedback } from '../../app/feedback.ts';

/**
 * The bill kit's last word on a failed write: a refusal from the server (an HttpError) was already shown
 * by the http layer as its catalogued message; anything else is shown here. Used where a click's promise
 * would otherwise reject with nobody to catch it (a console error, a page error in the browser).
 */
export function showUnshown(error: unknown): void {
  if (!isHttpError(error)) feedback.message.error(errorText(error));
}

/** Runs `work`, showing its failure (see `showUnshown`); resolves whether it went through. */
export async function quietly(work: () => Promise<unknown>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    showUnshown(error);
    return false;
  }
}
