import type { DocumentBrowser } from '../chromium/documentBrowser'

export const FOOTER =
  '<div style="font-size:8pt;width:100%;text-align:center;color:#555"><span class="pageNumber"></span> / <span class="totalPages"></span></div>'
const PRINT_TIMEOUT_MS = 120_000

/** Pages in a PDF Chromium wrote (its page objects are plain dictionaries, not in object streams). */
export function countPdfPages(pdf: Uint8Array): number {
  return (
    Buffer.from(pdf)
      .toString('latin1')
      .match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0
  )
}

/** Prints with the host's printer when it has one (Electron), else a headless Chromium page with JavaScript off and every request refused; size and margins come from its `@page` CSS. */
export async function printPdf(browser: DocumentBrowser, html: string): Promise<Uint8Array> {
  if (browser.printer) return browser.printer({ html, footerTemplate: FOOTER })
  const page = await browser.printPage()
  page.setDefaultTimeout(PRINT_TIMEOUT_MS)
  try {
    await page.setContent(html, { waitUntil: 'load' })
    const pdf = await page.pdf({
      preferCSSPageSize: true,
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate: FOOTER,
      outline: true,
      tagged: true,
    })
    return new Uint8Array(pdf)
  } finally {
    await page.close().catch(() => undefined)
  }
}
