/**
 * Fonts: Liberation (Latin, Greek, Cyrillic; metric twins of Times/Arial/Courier), DejaVu (the same scripts
 * plus Hebrew and Arabic), Noto CJK (Chinese, Japanese, Korean). Chromium falls back per character.
 */
export const SERIF = '"Liberation Serif", "DejaVu Serif", "Noto Serif CJK SC", "Noto Sans CJK SC", serif'
export const SANS = '"Liberation Sans", "DejaVu Sans", "Noto Sans CJK SC", sans-serif'
export const MONO = '"Liberation Mono", "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace'

export function printCss(options: { pageSize: string; margins: string }): string {
  return `
@page { size: ${options.pageSize}; margin: ${options.margins}; }
html { font-family: ${SERIF}; font-size: 11pt; line-height: 1.4; color: #111; }
h1, h2, h3, h4, h5, h6 { font-family: ${SANS}; line-height: 1.2; break-after: avoid; }
h1 { font-size: 20pt; } h2 { font-size: 16pt; } h3 { font-size: 13pt; }
.doc-title { font-size: 24pt; margin-top: 0; }
p, li { orphans: 2; widows: 2; }
a { color: #1a4d8f; }
code, pre { font-family: ${MONO}; font-size: 9.5pt; }
pre { background: #f4f4f4; border: 1px solid #ddd; padding: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
blockquote { margin: 0 0 0 0.5cm; padding-left: 0.4cm; border-left: 3px solid #bbb; color: #333; }
table { border-collapse: collapse; margin: 8px 0; max-width: 100%; }
th, td { border: 1px solid #999; padding: 3px 6px; vertical-align: top; }
th { background: #eee; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
img { max-width: 100%; }
figure.diagram { margin: 10px 0; text-align: center; break-inside: avoid; }
figure.diagram svg { max-width: 100%; height: auto; }
.page-break { break-after: page; }
.missing-image { color: #a00; font-style: italic; }
nav.toc ol { list-style: none; padding-left: 0; }
nav.toc .toc-2 { padding-left: 1em; } nav.toc .toc-3 { padding-left: 2em; }
section.footnotes { font-size: 9pt; border-top: 1px solid #ccc; margin-top: 16px; }
`
}
