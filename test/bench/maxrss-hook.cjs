// Preloaded (`node --require`) into the analysed CLI process by the benchmark: reports the
// process's peak resident set size on stderr as it exits.
process.on('exit', () => {
  require('node:fs').writeSync(2, `\nKEY_ROUTING_BENCH_MAXRSS_KB ${process.resourceUsage().maxRSS}\n`);
});
