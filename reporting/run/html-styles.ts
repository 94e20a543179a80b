/** The report's stylesheet: inline, so the file opens anywhere without network access. */
export const REPORT_CSS = `
:root{--bg:#f4f6f9;--card:#fff;--ink:#17202a;--muted:#5f6b7a;--line:#e2e7ee;--soft:#f7f9fb;
--pass:#1a7f37;--pass-bg:#e7f5ec;--fail:#c62828;--fail-bg:#fdecec;--warn:#a15c00;--warn-bg:#fff3dc;
--error:#6b46c1;--error-bg:#f1ecfc;--waived:#0e7490;--waived-bg:#e0f4f8;--skip:#6b7280;--skip-bg:#eef0f3;--accent:#2563eb;
--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
code,pre{font-family:var(--mono);font-size:12.5px}
.wrap{max-width:1180px;margin:0 auto;padding:0 24px}
.muted{color:var(--muted)}
.banner{color:#fff;padding:26px 0 22px}
.banner.passed{background:linear-gradient(135deg,#166534,#1a7f37)}
.banner.failed{background:linear-gradient(135deg,#9f1c1c,#d13434)}
.banner.undecided,.banner.aborted{background:linear-gradient(135deg,#4c2f99,#6b46c1)}
.banner .kicker{opacity:.85;font-size:13px;letter-spacing:.04em;text-transform:uppercase}
.banner h1{margin:4px 0 6px;font-size:34px;line-height:1.15;display:flex;align-items:center;gap:12px}
.banner h1 .icon{display:inline-grid;place-items:center;width:40px;height:40px;border-radius:50%;background:rgba(255,255,255,.18);font-size:24px}
.banner p{margin:0;opacity:.95}
.banner p.warning{margin-top:10px;padding:8px 12px;border-radius:6px;background:#fef3c7;color:#78350f;opacity:1;font-weight:600}
.banner p.demo{margin-top:10px;padding:8px 12px;border-radius:6px;background:#e0e7ff;color:#1e1b4b;opacity:1;font-weight:600}
.banner p.verdict-line{margin-top:8px;font-weight:600;overflow-wrap:anywhere}
.banner .meta{margin-top:10px;display:flex;flex-wrap:wrap;gap:6px 18px;font-size:13px;opacity:.9}
.parts{display:grid;grid-template-columns:repeat(auto-fit,minmax(230px,1fr));gap:12px;margin:-2px 0 8px;padding-top:18px}
section.problems{background:var(--card);border:1px solid #f4c2c2;border-left:5px solid var(--fail);border-radius:12px;margin:18px 0 0;padding:14px 20px}
section.problems h2{margin:0 0 6px;font-size:18px}
section.problems ul{margin:0;padding-left:18px}
section.problems li{margin:3px 0;overflow-wrap:anywhere}
section.problems .evidence{color:var(--muted);font-size:13px}
.part-card{display:block;background:var(--card);border:1px solid var(--line);border-left:5px solid var(--skip);border-radius:10px;padding:12px 14px;color:inherit;box-shadow:0 1px 2px rgba(16,24,40,.04)}
.part-card:hover{text-decoration:none;box-shadow:0 3px 10px rgba(16,24,40,.08)}
.part-card.passed{border-left-color:var(--pass)}.part-card.failed{border-left-color:var(--fail)}.part-card.undecided,.part-card.aborted{border-left-color:var(--error)}
.part-card .name{font-weight:600;display:flex;justify-content:space-between;gap:8px;align-items:center}
.part-card .fact{margin-top:4px;color:var(--muted);font-size:13px}
section.block{background:var(--card);border:1px solid var(--line);border-radius:12px;margin:18px 0;padding:18px 20px;box-shadow:0 1px 2px rgba(16,24,40,.04)}
section.block>header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:10px;margin-bottom:10px}
section.block h2{margin:0;font-size:20px;display:flex;align-items:center;gap:10px}
h3{font-size:15px;margin:18px 0 8px}
.pill{display:inline-block;border-radius:999px;padding:1px 9px;font-size:12px;font-weight:600;letter-spacing:.02em;white-space:nowrap;border:1px solid transparent}
.pill.PASS,.pill.passed,.pill.held{color:var(--pass);background:var(--pass-bg);border-color:#bfe3cb}
.pill.FAIL,.pill.failed,.pill.broken{color:var(--fail);background:var(--fail-bg);border-color:#f4c2c2}
.pill.WARN{color:var(--warn);background:var(--warn-bg);border-color:#f5d9a8}
.pill.ERROR,.pill.undecided,.pill.aborted{color:var(--error);background:var(--error-bg);border-color:#d9ccf5}
.pill.WAIVED{color:var(--waived);background:var(--waived-bg);border-color:#b5e0ea}
.pill.SKIP,.pill.skipped,.pill.inconclusive,.pill.not-exercised,.pill.level{color:var(--skip);background:var(--skip-bg);border-color:#dde1e6}
.counts{display:flex;flex-wrap:wrap;gap:6px}
.toolbar{display:flex;flex-wrap:wrap;gap:6px}
.toolbar button{font:inherit;font-size:12.5px;border:1px solid var(--line);background:var(--soft);color:var(--ink);border-radius:7px;padding:3px 10px;cursor:pointer}
.toolbar button:hover{background:#eef2f7}
.toolbar button[aria-pressed=true]{background:var(--ink);color:#fff;border-color:var(--ink)}
.area{margin-top:14px}
.area h3{display:flex;gap:10px;align-items:baseline}
.only-problems details.check.PASS{display:none}
.only-problems .area:not(:has(details.check:not(.PASS))){display:none}
details.check{border:1px solid var(--line);border-radius:9px;margin:6px 0;background:var(--card)}
details.check.FAIL{border-color:#f1b9b9;background:#fffafa}
details.check.ERROR{border-color:#d9ccf5}
details.check.WARN{border-color:#f3dcae}
details.check.WAIVED{border-color:#b5e0ea}
details.check>summary{cursor:pointer;list-style:none;display:grid;grid-template-columns:62px minmax(160px,250px) 1fr auto;gap:10px;align-items:start;padding:8px 12px}
details.check>summary::-webkit-details-marker{display:none}
details.check>summary .id{font-family:var(--mono);font-size:12.5px;padding-top:2px;overflow-wrap:anywhere}
details.check>summary .text{min-width:0}
details.check>summary .title{font-weight:500}
details.check>summary .message{color:var(--muted);font-size:13px;overflow-wrap:anywhere}
details.check[open]>summary{border-bottom:1px solid var(--line)}
.check-body{padding:10px 14px 14px}
.check-body dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0 0 8px;font-size:13px}
.check-body dt{color:var(--muted)}.check-body dd{margin:0}
.exchange{border:1px solid var(--line);border-radius:8px;margin:10px 0;overflow:hidden}
.exchange>.head{background:var(--soft);padding:6px 10px;font-size:13px;display:flex;gap:10px;flex-wrap:wrap;justify-content:space-between;border-bottom:1px solid var(--line)}
.exchange .grid{display:grid;grid-template-columns:1fr 1fr;gap:0}
.exchange .pane{min-width:0;border-top:1px solid var(--line)}
.exchange .pane+.pane{border-left:1px solid var(--line)}
.exchange .pane h4{margin:0;padding:6px 10px 0;font-size:11.5px;letter-spacing:.05em;text-transform:uppercase;color:var(--muted)}
.exchange pre{margin:0;padding:6px 10px 10px;white-space:pre-wrap;word-break:break-all;max-height:300px;overflow:auto}
.exchange .curl pre{background:#0f172a;color:#e2e8f0;padding:10px}
.exchange .curl h4{display:none}
.status-2{color:var(--pass)}.status-3{color:var(--accent)}.status-4{color:var(--warn)}.status-5,.status-x{color:var(--fail)}
.callout{border-radius:9px;padding:10px 14px;margin:8px 0 4px;border:1px solid var(--line);background:var(--soft)}
.callout.held{background:var(--pass-bg);border-color:#bfe3cb}.callout.broken{background:var(--fail-bg);border-color:#f4c2c2}
.callout.inconclusive,.callout.not-exercised{background:var(--skip-bg)}
.callout ul{margin:4px 0 0;padding-left:18px}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px;margin:12px 0}
.tile{border:1px solid var(--line);border-radius:9px;padding:8px 12px;background:var(--soft)}
.tile .label{font-size:12px;color:var(--muted)}
.tile .value{font-size:21px;font-weight:650;font-variant-numeric:tabular-nums}
.tile .sub{font-size:12px;color:var(--muted)}
.tile.bad{background:var(--fail-bg);border-color:#f4c2c2}.tile.bad .value{color:var(--fail)}
.tile.good .value{color:var(--pass)}
.charts{display:grid;grid-template-columns:1fr 1fr;gap:14px}
figure.chart.wide{grid-column:1/-1}
figure.chart{margin:0;border:1px solid var(--line);border-radius:10px;padding:10px 12px 8px;background:var(--card)}
figure.chart figcaption{font-size:13.5px;margin-bottom:4px}
figure.chart .plot{position:relative}
.chart-svg{width:100%;height:auto;display:block;overflow:visible}
.chart-svg .grid{stroke:#edf0f4;stroke-width:1}
.chart-svg .axis{stroke:#b6bfca;stroke-width:1}
.chart-svg .tick,.chart-svg .unit{fill:#6b7785;font-size:11.5px;font-family:system-ui,sans-serif}
.chart-svg .empty{fill:#8a96a3;font-size:13px;font-family:system-ui,sans-serif}
.chart-svg .guide{stroke:#94a3b8;stroke-dasharray:3 3}
.tip{position:absolute;top:0;pointer-events:none;background:rgba(15,23,42,.94);color:#fff;border-radius:7px;padding:6px 9px;font-size:12px;line-height:1.45;white-space:nowrap;z-index:2;box-shadow:0 4px 14px rgba(0,0,0,.2)}
.tip .dot{display:inline-block;width:8px;height:8px;border-radius:50%;margin-right:6px}
ul.legend{list-style:none;margin:4px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:12.5px}
ul.legend li{display:flex;align-items:center;gap:6px}
svg.swatch{width:14px;height:14px}
table.data{border-collapse:collapse;width:100%;font-size:13px;margin:6px 0}
table.data th,table.data td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
table.data th{color:var(--muted);font-weight:600;font-size:12px;text-transform:uppercase;letter-spacing:.04em}
table.data td code{overflow-wrap:anywhere}
.links{display:flex;flex-wrap:wrap;gap:8px;margin-top:10px}
.links a{border:1px solid var(--line);border-radius:7px;padding:4px 10px;background:var(--soft);font-size:13px}
.note{border-left:3px solid var(--error);padding:6px 12px;background:var(--error-bg);border-radius:0 8px 8px 0;margin:8px 0}
.cmd{font-family:var(--mono);font-size:12px;background:var(--soft);border:1px solid var(--line);border-radius:7px;padding:6px 10px;overflow-x:auto;white-space:pre}
footer{color:var(--muted);font-size:12.5px;padding:10px 0 40px}
@media (max-width:760px){details.check>summary{grid-template-columns:56px 1fr}details.check>summary .text{grid-column:1/-1}.exchange .grid{grid-template-columns:1fr}.exchange .pane+.pane{border-left:0}.charts{grid-template-columns:1fr}}
@media print{.toolbar,.tip{display:none}details.check{break-inside:avoid}}
`;
