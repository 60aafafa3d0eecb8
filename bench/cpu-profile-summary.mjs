// Sums a .cpuprofile's self time by function and by file: node bench/cpu-profile-summary.mjs FILE [top]
import { readFileSync } from 'node:fs';

const [file, top = '40'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const sum = (keyOf) => {
  const sums = new Map();
  for (const [id, micros] of self) {
    const key = keyOf(byId.get(id).callFrame);
    sums.set(key, (sums.get(key) ?? 0) + micros);
  }
  return [...sums].sort((a, b) => b[1] - a[1]).slice(0, Number(top));
};
const short = (url) => url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(src|bench)\//, '$1/');
const print = (title, rows) => {
  console.log(`\n${title} (total ${(total / 1000).toFixed(0)} ms)`);
  for (const [key, micros] of rows)
    console.log(`${((micros / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
};
print(
  'self time by function',
  sum((f) => `${f.functionName || '(anonymous)'} ${short(f.url)}:${f.lineNumber + 1}`),
);
print(
  'self time by file',
  sum((f) => short(f.url) || f.functionName),
);
