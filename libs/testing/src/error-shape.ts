/**
 * The specification's error body as a jest matcher object; `errorId` is an
 * exact id or a pattern.
 */
export function errorShape(errorId: string | RegExp): Record<string, unknown> {
  return {
    message: expect.any(String),
    showMessage: { EN: expect.any(String), ES: expect.any(String) },
    needUpdate: false,
    errorId: typeof errorId === 'string' ? errorId : expect.stringMatching(errorId),
  };
}
