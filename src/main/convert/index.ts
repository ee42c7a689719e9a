export { createAppConverter } from './appConverter'
export { type Converter, createConverter } from './createConverter'
export { ConvertError } from './errors'
export { extensionOf, formatOfExtension } from './extensions'
export { type ConvertLifetime, setConvertLifetime } from './lifetime'
export type { ConvertToolsetEnvironment } from './toolset/convertToolset'
export { ConvertResult } from './types'
export type { ProviderVisionOptions, VisionMode } from './vision/providerVision'
export { convertPoolSize } from './worker/pool'

/** The `convert` toolset, loaded on demand. */
export async function loadConvertToolset(
  env: import('./toolset/convertToolset').ConvertToolsetEnvironment = {},
) {
  const { createConvertToolset } = await import('./toolset/convertToolset')
  return createConvertToolset(env)
}

/**
 * An HTML text (an e-mail's HTML part) as Markdown with the attachment converter's rules (scripts,
 * styles and `data:` images dropped, GFM tables, nesting bounded), loaded on first use and run on
 * the calling thread; `warnings` say what was left out.
 */
export async function htmlTextToMarkdown(html: string): Promise<{ markdown: string; warnings: string[] }> {
  const { htmlToMarkdown } = await import('./markdown/htmlToMarkdown')
  const warnings: string[] = []
  const markdown = htmlToMarkdown(html, { dataImages: 'drop', warnings })
  return { markdown, warnings }
}

/** Draws PDF pages to PNG or JPEG with PDFium (the engine the converter reads PDFs with), loaded on first use. */
export async function renderPdfPages(
  ...args: Parameters<typeof import('./pdf/renderPages').renderPdfPages>
): ReturnType<typeof import('./pdf/renderPages').renderPdfPages> {
  const { renderPdfPages: render } = await import('./pdf/renderPages')
  return render(...args)
}
