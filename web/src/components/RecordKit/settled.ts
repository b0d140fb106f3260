/**
 * Whether a write call succeeded. A failed call has already been shown to the user by the HTTP client,
 * so a confirm button (Popconfirm, the row menu) just stops instead of leaving an unhandled rejection.
 */
export async function settled(call: Promise<unknown>): Promise<boolean> {
  try {
    await call;
    return true;
  } catch {
    return false;
  }
}
