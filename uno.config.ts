import { defineConfig, presetWind3 } from 'unocss';

// Drawer: 250px, visible from 960px up unless closed; below 960px an overlay when opened.
// Printing the backup codes (src/islands/twofa-parts.tsx) prints that panel alone.
const drawerCss = `
.side-drawer{min-height:calc(100vh - 3.5rem)}
html[data-drawer="closed"] .side-drawer{display:none}
@media (max-width:959.98px){
  .side-drawer{display:none}
  html[data-drawer="open"] .side-drawer{display:flex;position:fixed;top:3.5rem;left:0;bottom:0;z-index:30;box-shadow:0 0 16px rgba(0,0,0,.3)}
}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
@media print{html[data-print-backup-codes] body *{visibility:hidden}html[data-print-backup-codes] [data-print-area],html[data-print-backup-codes] [data-print-area] *{visibility:visible}html[data-print-backup-codes] [data-print-area]{position:absolute;left:0;top:0;width:100%}}
body{font-family:system-ui,-apple-system,"Segoe UI","Hiragino Sans","Noto Sans JP","Noto Sans CJK JP",sans-serif}
`;

export default defineConfig({
  presets: [presetWind3()],
  content: { filesystem: ['src/**/*.tsx'] },
  preflights: [{ getCSS: () => drawerCss }],
});
