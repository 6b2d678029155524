// Preloaded into a measured command (`node --require bench/rusage.cjs …`): at exit, writes what the whole
// process used — CPU of every thread, peak resident memory — as JSON to the file FAULTLAB_BENCH_RUSAGE names.
'use strict';
const { writeFileSync } = require('node:fs');

const out = process.env.FAULTLAB_BENCH_RUSAGE;
if (out) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, maxRssKb: usage.maxRSS }));
  });
}
