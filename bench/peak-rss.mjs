// Preloaded into a measured process (`node --import bench/peak-rss.mjs …`): at exit it writes the kernel's peak
// resident set size of that process (getrusage ru_maxrss, in KiB — what `/usr/bin/time -v` calls "Maximum resident
// set size") to the file named by AGENTRY_BENCH_RSS_FILE. Exact, unlike sampling, and needs no extra tools.
import fs from 'node:fs'

const file = process.env.AGENTRY_BENCH_RSS_FILE
if (file) process.on('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)))
