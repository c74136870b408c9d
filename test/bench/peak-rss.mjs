// Watches another process's resident memory while the bench is blocked running a client
// (spawnSync): `node peak-rss.mjs <pid> <file>` writes the highest VmRSS seen, in KB, to <file>
// each time it rises, so the file holds the peak whenever the bench reads it. Linux only.
import { readFileSync, writeFileSync } from 'node:fs';

const [pid, file] = process.argv.slice(2);
let peak = 0;
const sample = () => {
  let status;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    process.exit(0); // the process is gone
  }
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  if (kb > peak) {
    peak = kb;
    writeFileSync(file, String(peak));
  }
};
sample();
setInterval(sample, 20);
