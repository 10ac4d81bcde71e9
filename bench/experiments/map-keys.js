// EXPERIMENT: why uniqueness maps cost ~1 µs per record: Map.set of 1M string keys of different
// shapes, each in a fresh Map (median of 3).
const N = 1_000_000;
const shapes = {
  'E00000001 (padded ids)': (i) => `E${String(i).padStart(8, '0')}`,
  'id-1 (unpadded)': (i) => `id-${i}`,
  'random 9 chars': () => Math.random().toString(36).slice(2, 11),
  'emails ~35 chars': (i) => `francois.obrien.${i}@corp.example.net`,
};
for (const [name, make] of Object.entries(shapes)) {
  const keys = Array.from({ length: N }, (_, i) => make(i));
  const times = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    const m = new Map();
    for (let i = 0; i < N; i++) if (m.get(keys[i]) === undefined) m.set(keys[i], i);
    times.push(performance.now() - t);
  }
  const ht = performance.now();
  const s = new Set(); for (let i = 0; i < N; i++) s.add(keys[i]);
  const setMs = performance.now() - ht;
  const pt = performance.now();
  const o = Object.create(null); for (let i = 0; i < N; i++) if (o[keys[i]] === undefined) o[keys[i]] = i;
  console.log(`${name.padEnd(26)} Map ${times.sort((a, b) => a - b)[1].toFixed(0).padStart(5)} ms   Set(warm hashes) ${setMs.toFixed(0).padStart(5)} ms   dict ${(performance.now() - pt).toFixed(0).padStart(5)} ms`);
}
