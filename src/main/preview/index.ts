import { AppError } from '../../shared/errors'
import { renderPdfPages } from '../convert'
import { loadFilesToolsets } from '../files'
import { createToolSession, invoke } from '../tools'
import type { Workspace } from '../workspace'
import { previewHandlers } from './previewHandlers'

export { compareWorkbooks, readWorkbook } from './sheet/readWorkbook'

/** Points per inch; a page's width in points times dpi/72 is its width in pixels. */
const POINTS_PER_INCH = 72
/** A US Letter page is 612 points wide; pages are drawn for that width, others scale with it. */
const TYPICAL_PAGE_POINTS = 612

/**
 * The preview pane's routes, wired to the workspace, the history and files toolsets (restore goes through
 * the same path as the agent's `history restore` and `files restoreBackup`) and PDFium.
 */
export function createPreviewHandlers(options: { workspace: () => Workspace }) {
  return previewHandlers({
    workspace: options.workspace,
    restore: async (path, version) => {
      const session = createToolSession({
        toolsets: [...(await loadFilesToolsets())],
        workspace: options.workspace,
      })
      try {
        const result = version.startsWith('b:')
          ? await invoke(session, 'files.restoreBackup', { path, number: Number(version.slice(2)) })
          : await invoke(session, 'history.restore', { path, version: version.slice(2) })
        if (!result.ok) throw new AppError('HANDLER_FAILED', result.error)
        const receipt = result.value as { path: string; bytes: number; restored_from: string }
        // What was stored, read back from the workspace.
        const info = await options.workspace().stat(receipt.path)
        return { path: receipt.path, restoredFrom: receipt.restored_from, bytes: info.size ?? receipt.bytes }
      } finally {
        await session.dispose()
      }
    },
    renderPdf: async (bytes, page, width) => {
      if (page === 0) {
        const { pageCount } = await renderPdfPages(bytes, { pages: [1], dpi: 18, format: 'jpeg' })
        return { pageCount }
      }
      const dpi = Math.min(600, Math.max(18, (width * POINTS_PER_INCH) / TYPICAL_PAGE_POINTS))
      const { pageCount, pages } = await renderPdfPages(bytes, { pages: [page], dpi, format: 'jpeg' })
      const drawn = pages[0]
      return drawn
        ? { pageCount, page: { width: drawn.width, height: drawn.height, bytes: drawn.bytes } }
        : { pageCount }
    },
  })
}
