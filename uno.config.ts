import { defineConfig, presetWind3 } from 'unocss';

// Drawer: 250px, a column from 960px up unless closed; below 960px hidden, an overlay when opened
// (the Toolbar island sets html[data-drawer]). The nav carries no display utility: utilities come
// after these rules and a `flex` class used to win over the narrow-screen `display:none` (issue 14),
// and the selectors start at html so they outrank any single utility class anyway.
// Printing the backup codes (src/islands/twofa-parts.tsx) prints that panel alone.
const drawerCss = `
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
