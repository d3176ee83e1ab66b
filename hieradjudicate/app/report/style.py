"""The report's style sheet (light and dark, no external assets)."""

CSS = """
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1d1d1f; --muted: #666; --line: #d0d0d0;
  --head: #f3f4f6; --accent: #0b62a4; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #1b1c1e; --fg: #e3e3e3; --muted: #a0a0a0; --line: #444; --head: #2a2c30; --accent: #7cb8ff; }
}
body { background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  margin: 0 auto; max-width: 1100px; padding: 24px 32px 60px; }
h1 { font-size: 26px; margin-bottom: 4px; } h2 { font-size: 20px; border-bottom: 1px solid var(--line);
  padding-bottom: 4px; margin-top: 40px; } h3 { font-size: 16px; margin-top: 24px; }
.muted { color: var(--muted); } a { color: var(--accent); }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: var(--head); } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.swatch { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 5px;
  vertical-align: -1px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 12px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 150px; }
.card .v { font-size: 22px; font-weight: 600; } .card .l { color: var(--muted); font-size: 12px; }
details { margin: 6px 0 14px; } summary { cursor: pointer; color: var(--accent); }
.explain { border-left: 3px solid var(--line); padding: 2px 10px; color: var(--fg); }
svg.chart { max-width: 100%; height: auto; display: block; margin: 8px 0; }
.ids { font-family: ui-monospace, monospace; font-size: 12px; word-break: break-word; }
.note { white-space: pre-wrap; } .scroll { overflow-x: auto; max-width: 100%; }
nav ol { columns: 2; }
"""
