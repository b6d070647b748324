import { defineConfig, presetWind3 } from 'unocss';

// Drawer: 250px, a column from 960px up unless closed; below 960px hidden, an overlay when opened
// (the Toolbar island sets html[data-drawer]). The nav carries no display utility: utilities come
// after these rules and a `flex` class used to win over the narrow-screen `display:none` (issue 14),
// and the selectors start at html so they outrank any single utility class anyway.
// Printing the backup codes (src/islands/twofa/twofa-parts.tsx) prints that panel alone.
const drawerCss = `
/* A fieldset is min-content wide by default: its longest line pushed pages past 320px (issue 27 part 2). */
fieldset{min-width:0}
html .side-drawer{display:flex;flex-direction:column;min-height:calc(100vh - 3.5rem)}
html[data-drawer="closed"] .side-drawer{display:none}
html .drawer-backdrop{display:none}
@media (max-width:959.98px){
  html .side-drawer{display:none}
  html[data-drawer="open"] .side-drawer{display:flex;position:fixed;top:3.5rem;left:0;bottom:0;z-index:30;min-height:0;overflow-y:auto;box-shadow:0 0 16px rgba(0,0,0,.3)}
  html[data-drawer="open"] .drawer-backdrop{display:block;position:fixed;top:3.5rem;left:0;right:0;bottom:0;z-index:20;background:rgba(15,23,42,.45)}
}
.skip-link{position:absolute;left:.5rem;top:-10rem;z-index:60;padding:.5rem 1rem;border-radius:.25rem;background:#fff;color:#1e3a8a;font-weight:600}
.skip-link:focus{top:.5rem}
.dt-table{table-layout:fixed}
.dt-truncate{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.dt-toggle{display:none}
/* Tenant URLs (issue 27 part 2): below 640px each row is a card, the URL across the card's width and its copy button in view. */
@media (max-width:639.98px){
  .tu-table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}
  .tu-table,.tu-table tbody,.tu-table tr,.tu-table th,.tu-table td{display:block}
  .tu-table tr{padding:.5rem 0}
  .tu-table th,.tu-table td{padding:.25rem 1rem}
  .tu-table td[data-label]::before{content:attr(data-label);display:block;font-size:.75rem;font-weight:600;color:#334155}
  .tu-table td.tu-url{overflow-wrap:anywhere}
}
/* A value that is never cut (an email): it wraps where it must instead. */
.dt-whole{overflow-wrap:anywhere}
.dt-th{white-space:nowrap}
.dt-menu:popover-open{inset:auto;margin:.25rem 0 0 0;position-area:bottom span-left;position-try-fallbacks:flip-block}
@media (min-width:960px){
  .dt-actions{position:sticky;right:0;background:#fff;box-shadow:-8px 0 8px -8px rgba(15,23,42,.3)}
  thead .dt-actions{background:#f1f5f9}
}
@media (max-width:959.98px){
  html .dt-wrap{overflow:visible;background:transparent;box-shadow:none;border-radius:0}
  html .dt-table{display:block;min-width:0}
  .dt-table colgroup{display:none}
  .dt-table thead{display:block;position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap}
  .dt-table tbody,.dt-table tr,.dt-table td{display:block}
  .dt-table tr.dt-row{margin-bottom:.75rem;border:1px solid #cbd5e1;border-radius:.5rem;background:#fff;padding:.5rem .75rem}
  .dt-table td.dt-td{display:grid;grid-template-columns:minmax(6.5rem,35%) minmax(0,1fr);gap:.75rem;padding:.375rem 0;align-items:start}
  .dt-table td.dt-td::before{content:attr(data-label);font-weight:600;color:#334155}
  .dt-table .dt-truncate{white-space:normal;overflow:visible;overflow-wrap:anywhere}
  .dt-table tr.dt-empty{background:#fff;border-radius:.5rem}
  .dt-table td.dt-no-actions{display:none}
  html .dt-table td.dt-td{white-space:normal}
  /* Compact cards (issue 27 part 3): title, subtitle and chips, the actions at the top right, the rest behind the row's disclosure. */
  .dt-table.dt-compact tr.dt-row{position:relative;padding:.625rem .75rem}
  .dt-table.dt-compact td.dt-c-title,.dt-table.dt-compact td.dt-c-subtitle{display:block;padding:0}
  .dt-table.dt-compact td.dt-c-title{min-height:2rem;padding-right:7.5rem;font-size:1rem;font-weight:600}
  .dt-table.dt-compact td.dt-c-subtitle{color:#334155}
  .dt-table.dt-compact td.dt-c-subtitle .dt-truncate{overflow-wrap:anywhere}
  .dt-table.dt-compact td.dt-c-title::before,.dt-table.dt-compact td.dt-c-subtitle::before,.dt-table.dt-compact td.dt-c-chip::before{content:none}
  .dt-table.dt-compact td.dt-c-chip{display:inline-block;vertical-align:middle;padding:.375rem .375rem 0 0}
  .dt-table.dt-compact td.dt-c-chip>.dt-value{display:inline-block;padding:.0625rem .5rem;border:1px solid #64748b;border-radius:9999px;font-size:.75rem;line-height:1.25rem}
  .dt-table.dt-compact td.dt-c-detail{display:none}
  .dt-table.dt-compact tr.dt-open td.dt-c-detail{display:grid}
  .dt-table.dt-compact tr.dt-open td.dt-c-detail:first-of-type,.dt-table.dt-compact tr.dt-open td.dt-c-chip+td.dt-c-detail{margin-top:.5rem;border-top:1px solid #e2e8f0}
  .dt-table.dt-compact td.dt-actions{position:absolute;top:.5rem;right:.5rem;display:block;padding:0}
  .dt-table.dt-compact td.dt-actions::before{content:none}
  .dt-table.dt-compact .dt-toggle{display:inline-block}
  .dt-table.dt-compact td.dt-c-chip .dt-toggle{margin-left:.5rem}
}
.rt{position:relative;display:inline-block}
.rt-tip{position:absolute;left:0;bottom:calc(100% + 4px);z-index:50;width:max-content;max-width:min(20rem,calc(100vw - 2rem));padding:.25rem .5rem;border-radius:.25rem;background:#1e293b;color:#fff;font-size:.75rem;line-height:1.25rem;font-weight:400;display:none;pointer-events:none}
.rt:hover .rt-tip,.rt:focus-within .rt-tip{display:block}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
@media print{html[data-print-backup-codes] body *{visibility:hidden}html[data-print-backup-codes] [data-print-area],html[data-print-backup-codes] [data-print-area] *{visibility:visible}html[data-print-backup-codes] [data-print-area]{position:absolute;left:0;top:0;width:100%}}
html:lang(ja) body{word-break:normal;word-break:auto-phrase;line-break:strict}
body{overflow-wrap:break-word;font-family:system-ui,-apple-system,"Segoe UI","Hiragino Sans","Noto Sans JP","Noto Sans CJK JP",sans-serif}
`;

export default defineConfig({
  presets: [presetWind3()],
  content: { filesystem: ['src/**/*.tsx'] },
  preflights: [{ getCSS: () => drawerCss }],
});
