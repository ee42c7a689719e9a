import { AppError } from '../../../shared/errors'
import type { Workspace } from '../../workspace'
import { shortReason } from '../connect/connectErrors'
import { fileNameOf, guardedGet, MAX_FETCH_BYTES } from '../pdf/pdfDocument'
import type { BrowserSession } from '../session/browserSession'
import type { Tab } from '../session/tab'
import { safeFileName, saveUnique } from './saveToWorkspace'

export async function saveScreenshot(tab: Tab, workspace: Workspace, fullPage: boolean) {
  const png = await tab.page.screenshot({ fullPage, type: 'png', timeout: 30_000 })
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '')
  const receipt = await saveUnique(workspace, '/screenshots', `page-${stamp}.png`, png)
  return { path: receipt.path, bytes: receipt.bytes }
}

function nameFromDisposition(header: string | undefined): string | undefined {
  if (!header) return undefined
  const star = /filename\*\s*=\s*[^']*''([^;]+)/i.exec(header)
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim())
    } catch {
      return star[1].trim()
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1]?.trim()
}

async function streamToBytes(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string)
    size += buffer.length
    if (size > MAX_FETCH_BYTES) throw new AppError('TOO_LARGE', 'The download is larger than 100 MB.')
    chunks.push(buffer)
  }
  return Buffer.concat(chunks)
}

/** Downloads land only in the workspace, under /downloads, never replacing a file. */
export async function downloadFile(
  session: BrowserSession,
  workspace: Workspace,
  args: { id?: string; url?: string },
) {
  await workspace.mkdir('/downloads').catch(() => {})
  if (args.url) {
    const tab = await session.activeTab()
    const { url, response } = await guardedGet(tab.page.context(), await session.guard(), args.url)
    const bytes = await response.body()
    const name = safeFileName(
      nameFromDisposition(response.headers()['content-disposition']) ?? fileNameOf(url, 'download'),
      'download',
    )
    const receipt = await saveUnique(workspace, '/downloads', name, bytes)
    return { path: receipt.path, bytes: receipt.bytes, url }
  }
  const id = args.id as string
  const { page, handle } = await session.refs.locate(id)
  try {
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      handle.click({ timeout: 8_000 }),
    ]).catch((error: unknown) => {
      throw new AppError(
        'UNAVAILABLE',
        `Clicking ${id} did not start a download (${shortReason(error)}). Use click if it opens a page.`,
        { cause: error },
      )
    })
    await (await session.guard()).check(download.url()).catch((error: unknown) => {
      void download.cancel()
      throw error
    })
    const failure = await download.failure()
    if (failure) throw new AppError('UNAVAILABLE', `The download failed: ${failure}`)
    const stream = await download.createReadStream()
    const bytes = await streamToBytes(stream)
    const receipt = await saveUnique(
      workspace,
      '/downloads',
      safeFileName(download.suggestedFilename(), 'download'),
      bytes,
    )
    return { path: receipt.path, bytes: receipt.bytes, url: download.url() }
  } finally {
    await handle.dispose().catch(() => {})
  }
}
