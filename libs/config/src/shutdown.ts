/**
 * Runs `close` once on SIGINT or SIGTERM, then exits: 0 when everything
 * closed, 1 when closing failed.
 */
export function closeOnSignal(close: () => Promise<void>, log: (line: string) => void = () => {}): void {
  let closing = false;
  const handler = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    log(`${signal} received, shutting down`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}
