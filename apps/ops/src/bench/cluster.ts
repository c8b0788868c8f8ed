import cluster from 'node:cluster';
import * as path from 'node:path';

/**
 * The payins API as BENCH_WORKERS processes behind one port (Node's cluster:
 * the primary accepts and hands connections round-robin to the workers).
 * Started by the benchmark to show that throughput grows with processes:
 * every process is stateless apart from its caches, which LISTEN/NOTIFY keeps
 * in step.
 */
if (cluster.isPrimary) {
  const workers = Number(process.env.BENCH_WORKERS ?? 2);
  let listening = 0;
  cluster.on('listening', () => {
    listening += 1;
    if (listening === workers) process.send?.('ready');
  });
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  });
} else {
  // The built API's entry point, as `npm run start:payins-api` runs it (apps do not import each other).
  void import(path.resolve(__dirname, '../../../payins-api/src/main.js'));
}
