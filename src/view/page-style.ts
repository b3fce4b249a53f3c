/** The page's style sheet: one inline <style>, allowed by its hash in the Content-Security-Policy. */
export const PAGE_STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; font-size: 15px; }
body { margin: 0 auto; padding: 1rem 1.5rem 4rem; max-width: 1200px; color: #111; background: #fff; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #999; } h3 { font-size: 1rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { border: 1px solid #bbb; padding: 0.2rem 0.5rem; text-align: right; vertical-align: top; }
th[scope=row], thead th { text-align: left; }
.disagreements td, .disagreements th { text-align: left; }
pre { white-space: pre-wrap; word-break: break-word; background: #f4f4f4; padding: 0.5rem; border: 1px solid #ddd; max-height: 30rem; overflow: auto; }
.chart { max-width: 100%; height: auto; font-size: 13px; }
.chart .grid { stroke: #ddd; } .chart .tick { fill: #444; font-size: 11px; }
.chart .track { fill: #f0f0f0; stroke: #999; } .chart .bar { fill: #555; } .chart .bar.missed { fill: #aaa; } .chart .bar.pending { fill: #ccc; }
.chart .whisker { stroke: #000; stroke-width: 2; } .chart .target { stroke: #000; stroke-width: 2; stroke-dasharray: 5 3; }
.chart .label, .chart .value, .chart .target-label { fill: #111; }
.chart .survival-line { stroke: #111; stroke-width: 2.5; } .chart .survival-line.line-1 { stroke-dasharray: 8 4; } .chart .survival-line.line-2 { stroke-dasharray: 2 3; } .chart .survival-line.line-3 { stroke: #777; }
del { text-decoration: line-through; background: #eee; } ins { text-decoration: underline; font-weight: 600; background: #eee; }
.diff { font-family: ui-monospace, monospace; white-space: pre-wrap; } .path { font-weight: 600; font-family: ui-monospace, monospace; }
.filters label { margin-right: 1rem; } .pager button { margin-right: 0.5rem; }
.rep { border: 1px solid #bbb; padding: 0 0.75rem 0.5rem; margin: 0.75rem 0; }
.rep.error { border-left: 6px solid #333; } .marks { list-style: none; padding: 0; } .error p { font-weight: 600; }
.warning { font-weight: 600; }
nav a, nav button { margin-right: 1rem; }
.marker { display: grid; grid-template-columns: 3fr 2fr; gap: 1rem; }
.marker pre { max-height: 60vh; min-height: 20rem; }
.marker #pane-text { max-height: 60vh; min-height: 20rem; overflow: auto; } .marker #pane-text pre { max-height: none; margin: 0; }
.markdown { background: #fafafa; padding: 0.25rem 0.75rem; border: 1px solid #ddd; overflow-wrap: anywhere; } .markdown pre { max-height: none; }
.markdown table { border-collapse: collapse; } .markdown th, .markdown td { border: 1px solid #ccc; padding: 0.15rem 0.4rem; }
.markbar { font-size: 1.1rem; padding: 0.5rem; border: 2px solid #333; margin: 0.5rem 0; }
.keys { color: #333; font-size: 0.9rem; } .status { font-weight: 600; }
.side { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.turns { list-style: none; padding-left: 0.5rem; border-left: 3px solid #ccc; } .turn { margin: 0.5rem 0; } .turn h4 { margin: 0.5rem 0 0.25rem; }
.turn[data-check=fail] h4, .turn-error { font-weight: 700; } .rollout-summary { font-weight: 600; }
.turnbar { list-style: none; padding: 0; margin: 0.25rem 0; } .turnbar li { margin: 0.15rem 0; }
.turnbar li[aria-current=true] .turn-pick { font-weight: 700; text-decoration: underline; }
.turnbar li[data-mark=fail] .turn-pick, .turnbar li[data-mark=pass] .turn-pick { border-width: 2px; }
button.tab[aria-selected=true] { font-weight: 700; text-decoration: underline; }
.tool-calls ol { padding-left: 1.5rem; } .tool-call code { white-space: pre-wrap; word-break: break-word; }
.tool-call.failed code { font-weight: 700; }
`;
