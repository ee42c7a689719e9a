import { AppError } from '../../../shared/errors'
import type { DocumentBrowser } from '../chromium/documentBrowser'

export type ScreenshotFormat = 'png' | 'jpeg'

export const RENDER_IMAGE_LIMITS = {
  minWidth: 100,
  maxWidth: 4000,
  /** Tallest page drawn, in CSS pixels; longer content is an error, not a silently cut picture. */
  maxHeight: 16_000,
  maxHtmlChars: 5_000_000,
} as const

const RENDER_TIMEOUT_MS = 120_000
const JPEG_QUALITY = 90
const CSP =
  '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; img-src data:; style-src \'unsafe-inline\'; font-src data:">'
/** White paper and a margin, so a picture of a document looks like one on any viewer's background. */
const SCREEN_CSS = '<style>html { background: #fff; } body { margin: 24px; }</style>'

/**
 * HTML the caller wrote, made as safe as the print page: a Content-Security-Policy that allows only inline
 * styles and data: pictures goes first in its head. Scripts never run anyway (the page has JavaScript off)
 * and every request but data: is refused by the browser context.
 */
export function guardHtml(html: string): string {
  if (html.length > RENDER_IMAGE_LIMITS.maxHtmlChars)
    throw new AppError(
      'TOO_LARGE',
      `The HTML is longer than ${RENDER_IMAGE_LIMITS.maxHtmlChars} characters; split it into several images.`,
    )
  const head = /<head(\s[^>]*)?>/i.exec(html)
  if (head)
    return `${html.slice(0, head.index + head[0].length)}${CSP}${html.slice(head.index + head[0].length)}`
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html)
  if (doctype) return `${doctype[0]}<head>${CSP}</head>${html.slice(doctype[0].length)}`
  return `<!doctype html><head><meta charset="utf-8">${CSP}</head>${html}`
}

/** Adds the screen margin and background to the document HTML the PDF printer would get. */
export function screenHtml(documentHtml: string): string {
  return documentHtml.replace('</head>', `${SCREEN_CSS}</head>`)
}

/**
 * Draws `html` on a page of the documents' headless Chromium (the print context: JavaScript off, requests
 * refused) `width` CSS pixels wide and as tall as its content, and returns the screenshot's bytes.
 */
export async function screenshotHtml(
  browser: DocumentBrowser,
  html: string,
  options: { width: number; format: ScreenshotFormat },
): Promise<Uint8Array> {
  const { width, format } = options
  const page = await browser.printPage()
  page.setDefaultTimeout(RENDER_TIMEOUT_MS)
  try {
    await page.setViewportSize({ width, height: 200 })
    await page.setContent(html, { waitUntil: 'load' })
    // Playwright measures in its own utility world, which runs with the page's JavaScript off.
    const height = await page.evaluate(() =>
      Math.ceil(Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0)),
    )
    if (height > RENDER_IMAGE_LIMITS.maxHeight)
      throw new AppError(
        'TOO_LARGE',
        `The content is ${height} pixels tall at width ${width}; the limit is ${RENDER_IMAGE_LIMITS.maxHeight}. ` +
          'Split it into several images or make it wider.',
      )
    const shot = await page.screenshot({
      fullPage: true,
      type: format,
      ...(format === 'jpeg' ? { quality: JPEG_QUALITY } : {}),
      animations: 'disabled',
    })
    return new Uint8Array(shot)
  } finally {
    await page.close().catch(() => undefined)
  }
}
