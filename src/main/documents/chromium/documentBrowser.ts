import { createRequire } from 'node:module'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { AppError } from '../../../shared/errors'
import { findBrowser, QUIET_FLAGS } from '../../browser'

/** What a PDF printer gets: the document's HTML (scripts never run) and the page-number footer. */
export interface PdfPrintRequest {
  html: string
  footerTemplate: string
}

/** Prints HTML to PDF bytes; the desktop shell passes Electron's `printToPDF`. */
export type PdfPrinter = (request: PdfPrintRequest) => Promise<Uint8Array>

/** Where the document engines find Chromium: an explicit executable, else the web toolset's discovery. */
export interface DocumentBrowserOptions {
  /** The browser setting or `--browser-executable`; read when the first page is needed. */
  executablePath?: () => string | null | undefined | Promise<string | null | undefined>
  /** Prints PDFs instead of the headless Chromium (the app's own Electron); diagrams still use Chromium. */
  printPdf?: PdfPrinter
}

/**
 * One headless Chromium for documents, with two contexts: `diagrams` runs the bundled mermaid (scripts on,
 * every request refused), `print` lays out the document with JavaScript off, so nothing in the Markdown runs.
 */
export interface DocumentBrowser {
  /** Set when PDFs are printed by the host (Electron) rather than a page of this browser. */
  readonly printer?: PdfPrinter
  diagramPage(): Promise<Page>
  printPage(): Promise<Page>
  close(): Promise<void>
}

export function mermaidScriptPath(): string {
  return createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js')
}

async function offline(context: BrowserContext): Promise<BrowserContext> {
  await context.route('**/*', (route) => {
    const url = route.request().url()
    return url.startsWith('data:') || url === 'about:blank'
      ? route.continue()
      : route.abort('blockedbyclient')
  })
  return context
}

async function launch(options: DocumentBrowserOptions): Promise<Browser> {
  const executablePath =
    (await options.executablePath?.()) ?? findBrowser({ families: ['chromium', 'chrome', 'edge'] })?.path
  if (!executablePath)
    throw new AppError(
      'UNAVAILABLE',
      'No Chromium, Chrome or Edge found: documents need one to draw and print.',
    )
  const { chromium } = await import('playwright-core')
  try {
    return await chromium.launch({
      executablePath,
      headless: true,
      chromiumSandbox: false,
      args: [...QUIET_FLAGS, '--disable-gpu'],
      timeout: 30_000,
    })
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    throw new AppError('UNAVAILABLE', `Chromium could not be started: ${reason}`, { cause: error })
  }
}

/** Starts nothing until a page is asked for; `close()` ends the browser if one was started. */
export function createDocumentBrowser(options: DocumentBrowserOptions = {}): DocumentBrowser {
  let browser: Promise<Browser> | undefined
  const contexts = new Map<string, Promise<BrowserContext>>()
  const started = () => {
    browser ??= launch(options)
    return browser
  }
  const context = (kind: 'diagrams' | 'print') => {
    let found = contexts.get(kind)
    if (!found) {
      found = started().then(async (b) =>
        offline(
          await b.newContext({
            javaScriptEnabled: kind === 'diagrams',
            deviceScaleFactor: kind === 'diagrams' ? 3 : 1,
            serviceWorkers: 'block',
            offline: true,
          }),
        ),
      )
      contexts.set(kind, found)
    }
    return found
  }
  return {
    ...(options.printPdf ? { printer: options.printPdf } : {}),
    diagramPage: async () => (await context('diagrams')).newPage(),
    printPage: async () => (await context('print')).newPage(),
    async close() {
      const current = browser
      browser = undefined
      contexts.clear()
      if (current) await (await current.catch(() => undefined))?.close()
    },
  }
}
