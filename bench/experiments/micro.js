// EXPERIMENT: what each per-record operation of the sandbox and validator costs on 1M real records
// (element texts from the benchmark's JSON body). Usage: node bench/experiments/micro.js BODY.json
import { readFileSync } from 'node:fs';
import { teamMemberAccepted, teamMember } from '../../dist/contract/schemas.js';

const texts = JSON.parse(readFileSync(process.argv[2], 'utf8')).map((o) => JSON.stringify(o));
const time = (name, fn) => {
  const t = performance.now();
  const r = fn();
  console.log(`${name.padEnd(44)} ${(performance.now() - t).toFixed(0).padStart(6)} ms`);
  return r;
};
const objs = time('JSON.parse ×1M', () => texts.map((t) => JSON.parse(t)));
time('zod safeParse (accepted schema) ×1M', () => { let ok = 0; for (const o of objs) if (teamMemberAccepted.safeParse(o).success) ok++; return ok; });
time('zod safeParse (wire schema) ×1M', () => { let ok = 0; for (const o of objs) if (teamMember.safeParse(o).success) ok++; return ok; });
const datas = objs.map((o) => teamMember.safeParse(o).data);
time('JSON.stringify ×1M', () => datas.map((d) => JSON.stringify(d)));
time('template string serialisation ×1M', () => datas.map((d) => `{"employeeID":${JSON.stringify(d.employeeID)},"email":${JSON.stringify(d.email)},"name":${JSON.stringify(d.name)},"roleCode":${d.roleCode === null ? 'null' : JSON.stringify(d.roleCode)},"parentKey":${d.parentKey === null ? 'null' : JSON.stringify(d.parentKey)}}`));
const keys = datas.map((d) => d.employeeID);
const emails = datas.map((d) => d.email);
time('Set add+has of 1M keys', () => { const s = new Set(); for (const k of keys) { if (s.has(k)) throw 1; s.add(k); } return s.size; });
time('Map get+set of 1M keys', () => { const s = new Map(); for (let i = 0; i < keys.length; i++) { if (s.get(keys[i]) !== undefined) throw 1; s.set(keys[i], i); } return s.size; });
const lower = time('toLowerCase of 1M emails', () => emails.map((e) => e.toLowerCase()));
time('Set add+has of 1M lowered emails', () => { const s = new Set(); for (const k of lower) { if (s.has(k)) throw 1; s.add(k); } return s.size; });
time('Set add+has, both, interleaved', () => { const a = new Set(); const b = new Set(); for (let i = 0; i < keys.length; i++) { a.has(keys[i]); a.add(keys[i]); const e = emails[i].toLowerCase(); b.has(e); b.add(e); } return a.size; });
