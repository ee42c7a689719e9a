import type { BrowserEnvironment } from '../browser'
import type { ConvertToolsetEnvironment } from '../convert'
import type { DocumentsEnvironment } from '../documents'
import type { EmailEnvironment } from '../email'
import type { KnowledgeToolsetEnvironment } from '../knowledge'
import type { Toolset } from '../tools'

export interface BuiltinToolsetOptions {
  /** Where the `web` toolset finds its settings and flags; without it the host offers no `web` toolset. */
  browser?: BrowserEnvironment
  /** The app's converter for the `convert` toolset (shared with attachments); default: one per tool session. */
  convert?: ConvertToolsetEnvironment
  /** The app's knowledge service; without it the host offers no `knowledge` toolset. */
  knowledge?: KnowledgeToolsetEnvironment
  /** The e-mail accounts of the settings; without it the host offers no `email` toolset. */
  email?: EmailEnvironment
  /** Which Chromium the `documents` toolset draws and prints with (default: the browser settings, else the first found) and the host's PDF printer. */
  documents?: DocumentsEnvironment
}

function documentsEnvironment(options: BuiltinToolsetOptions): DocumentsEnvironment {
  const browser = options.browser
  const derived: DocumentsEnvironment = browser
    ? {
        executablePath: async () =>
          browser.overrides?.executablePath ?? (await browser.settings()).executablePath,
      }
    : {}
  return { ...derived, ...options.documents }
}

/**
 * The one list of toolsets the host provides itself (plugins come on top and cannot replace them).
 * Each service's toolsets are imported lazily so `bureau` starts fast; add new built-ins here.
 */
export async function loadBuiltinToolsets(options: BuiltinToolsetOptions = {}): Promise<Toolset[]> {
  const { loadFilesToolsets } = await import('../files')
  const web = options.browser ? [await (await import('../browser')).loadWebToolset(options.browser)] : []
  const { loadSpreadsheetToolset } = await import('../spreadsheet')
  const { loadConvertToolset } = await import('../convert')
  const knowledge = options.knowledge
    ? [await (await import('../knowledge')).loadKnowledgeToolset(options.knowledge)]
    : []
  const { loadDocumentsToolset } = await import('../documents')
  const email = options.email ? [await (await import('../email')).loadEmailToolset(options.email)] : []
  return [
    ...(await loadFilesToolsets()),
    await loadConvertToolset(options.convert),
    ...knowledge,
    await loadSpreadsheetToolset(),
    await loadDocumentsToolset(documentsEnvironment(options)),
    ...web,
    ...email,
  ]
}
