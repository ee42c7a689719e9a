import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BrowserWindow, session } from 'electron'
import type { PdfPrintRequest } from '../documents'

const PARTITION = 'bureau-print'

/**
 * Documents printed by Electron's own Chromium (no separate browser needed): a hidden window with
 * JavaScript off, in a session of its own that refuses every request except the page's file and data: URLs.
 */
export async function electronPrintPdf(request: PdfPrintRequest): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'bureau-print-'))
  const file = join(dir, 'document.html')
  // A file, not a data: URL: long documents with pictures pass Chromium's URL length limit.
  await writeFile(file, request.html, 'utf8')
  const pageUrl = pathToFileURL(file).href
  const printSession = session.fromPartition(PARTITION)
  printSession.webRequest.onBeforeRequest((details, callback) =>
    callback({ cancel: !(details.url === pageUrl || details.url.startsWith('data:')) }),
  )
  const window = new BrowserWindow({
    show: false,
    webPreferences: { javascript: false, sandbox: true, session: printSession, webSecurity: true },
  })
  try {
    await window.loadURL(pageUrl)
    const pdf = await window.webContents.printToPDF({
      preferCSSPageSize: true,
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate: request.footerTemplate,
      generateDocumentOutline: true,
      generateTaggedPDF: true,
    })
    return new Uint8Array(pdf)
  } finally {
    window.destroy()
    await rm(dir, { recursive: true, force: true })
  }
}
