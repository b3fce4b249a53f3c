// Loaded with `node --import` by bench/start.ts: at exit, appends this process's CPU time (user + system, ms, from
// process.cpuUsage()) to $BENCH_CPU_FILE. A busy machine stretches a process's wall time far more than its CPU time.
import { appendFileSync } from 'node:fs';

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  appendFileSync(process.env.BENCH_CPU_FILE, `${(user + system) / 1000}\n`);
});
