// The page's one stylesheet (its sha256 is in the Content-Security-Policy, so it is a constant). The
// hours grids place bars with classes, not style attributes, which the policy would block: a week runs
// from 06:00 to 06:00 the next morning in quarter hours, grid lines 1..97.

const SLOTS = 96;
const lines = Array.from({ length: SLOTS + 1 }, (_, i) => i + 1);
const placement = lines.map((n) => `.gs-${n}{grid-column-start:${n}}.ge-${n}{grid-column-end:${n}}`).join('');

export const STYLE = `
:root{--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--add:#dafbe1;--del:#ffebe9;--chg:#fff8c5;--line:#d0d7de;--muted:#57606a;color-scheme:light}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header,main{max-width:1200px;margin:0 auto;padding:0 16px}
header{padding-top:16px}
h1{font-size:22px;margin:8px 0}
h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:15px;margin:16px 0 6px}
nav a{margin-right:12px}
code,.mono,td.key{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
td.details{font-size:12px;color:var(--muted);word-break:break-all}
ul.said,ul.also{margin:4px 0 0;padding-left:18px}
ul.said li{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
.banner{border-radius:6px;padding:12px 16px;margin:12px 0;border:1px solid var(--line);background:#fff}
.banner.ok{border-left:6px solid var(--ok)}.banner.bad{border-left:6px solid var(--bad)}.banner.warn{border-left:6px solid var(--warn)}
.banner .outcome{font-size:18px;font-weight:600}
.cards{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}
.card{background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 12px;min-width:110px}
.card b{display:block;font-size:20px}
.card.added{background:var(--add)}.card.removed{background:var(--del)}.card.changed{background:var(--chg)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
.wrap{overflow:auto;max-height:80vh;background:#fff;border:1px solid var(--line);border-radius:6px}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:break-word}
thead th{white-space:nowrap}
thead th{position:sticky;top:0;background:#eaeef2;z-index:1}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit}
th[aria-sort=ascending] button::after{content:" ▲"}th[aria-sort=descending] button::after{content:" ▼"}
table.changes td:first-child,td.key{white-space:nowrap;overflow-wrap:normal}
tbody.chunk{content-visibility:auto;contain-intrinsic-size:auto 12000px}
tr[data-change=added] td:first-child{background:var(--add)}
tr[data-change=removed] td:first-child{background:var(--del)}
tr[data-change=changed] td:first-child{background:var(--chg)}
tr.error td:first-child{color:var(--bad);font-weight:600}tr.warning td:first-child{color:var(--warn);font-weight:600}
.verdict-ok{color:var(--ok);font-weight:600}.verdict-refused{color:var(--bad);font-weight:600}.verdict-other{color:var(--warn);font-weight:600}
.filters{margin:6px 0}
.filters input[type=radio]{position:absolute;opacity:0}
.filters label{display:inline-block;border:1px solid var(--line);border-radius:14px;padding:2px 10px;margin:0 4px 6px 0;background:#fff;cursor:pointer}
.filters input[type=radio]:checked+label{background:#0969da;color:#fff;border-color:#0969da}
.filters input[type=radio]:focus-visible+label{outline:2px solid #0969da;outline-offset:2px}
#show-added:checked~.wrap tr[data-change]:not([data-change=added]),
#show-removed:checked~.wrap tr[data-change]:not([data-change=removed]),
#show-changed:checked~.wrap tr[data-change]:not([data-change=changed]){display:none}
tr.filtered{display:none}
input.filter{font:inherit;padding:4px 8px;border:1px solid var(--line);border-radius:6px;min-width:280px;margin:0 8px 6px 0}
.count{color:var(--muted)}
.note{color:var(--muted);margin:6px 0}
.pager{margin:6px 0}.pager button{font:inherit;padding:2px 10px;border:1px solid var(--line);border-radius:6px;background:#fff;cursor:pointer}.pager button:disabled{opacity:.4;cursor:default}
.lines{margin:0;padding:0;list-style:none}.lines li+li{margin-top:2px}
.weeks{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:12px}
figure.week{margin:0;background:#fff;border:1px solid var(--line);border-radius:6px;padding:8px 12px}
figure.week figcaption{font-weight:600;margin-bottom:6px;overflow-wrap:anywhere}
.tag{font-size:12px;font-weight:600;border-radius:10px;padding:0 8px;margin-left:6px}
.tag.added{background:var(--add)}.tag.changed{background:var(--chg)}
.day{display:grid;grid-template-columns:36px 1fr 190px;gap:0 8px;align-items:center;padding:2px 0;border-top:1px solid #eef1f4}
.day.differs{background:#fffbe6}
.day .dn{font-weight:600}
.day .txt{font-size:12px;font-family:ui-monospace,Menlo,Consolas,monospace}
.day .txt del{color:var(--bad)}.day .txt ins{color:var(--ok);text-decoration:none}
.tracks{display:grid;gap:2px}
.track{display:grid;grid-template-columns:repeat(${SLOTS},1fr);height:10px;background-color:#f3f4f6;background-image:linear-gradient(to right,transparent calc(75% - 1px),#57606a calc(75% - 1px),#57606a 75%,transparent 75%),repeating-linear-gradient(to right,#d8dde3 0 1px,transparent 1px calc(100% / 12));border-radius:2px}
.track .bar{grid-row:1;height:10px;border-radius:2px}
.track.before .bar{background:#8c959f}.track.after .bar{background:#0969da}
.track .closed{grid-column:1/-1;grid-row:1;font-size:9px;line-height:10px;color:var(--muted);text-align:center;letter-spacing:.05em}
.scale{display:grid;grid-template-columns:36px 1fr 190px;gap:0 8px;font-size:11px;color:var(--muted)}
.scale .ticks{display:grid;grid-template-columns:repeat(${SLOTS},1fr)}
.scale .ticks span{grid-row:1;white-space:nowrap}.scale .ticks .end{text-align:right}
.legend{font-size:12px;color:var(--muted)}
.legend i{display:inline-block;width:18px;height:8px;border-radius:2px;margin:0 4px 0 10px}
.legend .lb{background:#8c959f}.legend .la{background:#0969da}
details>summary{cursor:pointer;font-weight:600}
footer{max-width:1200px;margin:24px auto;padding:0 16px;color:var(--muted);font-size:12px}
${placement}
@media print{.wrap{max-height:none;overflow:visible}.filters,input.filter{display:none}}
`;
