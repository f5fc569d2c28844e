import { readdirSync, readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { figureAsked, type Bench } from './bench-api';
import { QUICK } from './quick';

/**
 * `npm run bench [-- PREFIX[,PREFIX...]]`: runs the benches, prints `name: value` lines, writes
 * bench-results.json.
 */
const here = dirname(fileURLToPath(import.meta.url));
const prefixes = (process.argv[2] ?? '').split(',');
// A quick run's figures (small sizes, one run) are not comparable: they go to a file of their own.
const resultsFile = join(here, '..', QUICK ? 'bench-results.quick.json' : 'bench-results.json');
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();

/** Adds a figure to the results file, read afresh: CI runs two lanes of benches at once. */
function keep(name: string, value: number) {
  const results = existsSync(resultsFile)
    ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Record<string, number>)
    : {};
  results[name] = value;
  // Written aside and renamed, so the other lane never reads half a file.
  writeFileSync(`${resultsFile}.${process.pid}`, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(`${resultsFile}.${process.pid}`, resultsFile);
}
let ran = 0;
for (const file of files) {
  const bench = (await import(pathToFileURL(join(here, file)).href)).default as Bench;
  const wanted = bench.figures.some(figureAsked);
  if (!wanted) continue;
  ran++;
  const started = performance.now();
  await bench.run((name, value) => {
    if (!figureAsked(name)) return;
    console.log(`${name}: ${value}`);
    keep(name, value);
  });
  if (QUICK) console.log(`(${file}: ${Math.round((performance.now() - started) / 1000)} s)`);
}
if (ran === 0) {
  console.error(`no bench produces a figure starting with "${prefixes.join('" or "')}"`);
  process.exit(1);
}
process.exit(0);
