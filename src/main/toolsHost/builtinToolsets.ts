import { type BrowserEnvironment, browserExecutable, loadWebToolset } from '../browser'
import { type CalendarEnvironment, loadCalendarToolset } from '../calendar'
import { type ConvertToolsetEnvironment, loadConvertToolset } from '../convert'
import { type DocumentsEnvironment, loadDocumentsToolset } from '../documents'
import { type EmailEnvironment, loadEmailToolset } from '../email'
import { loadFilesToolsets } from '../files'
import { type KnowledgeToolsetEnvironment, loadKnowledgeToolset } from '../knowledge'
import { loadMemoryToolset, type MemoryToolsetEnvironment } from '../memory'
import { loadSpreadsheetToolset } from '../spreadsheet'
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
  /** The user's zone and CalDAV accounts; without it the host offers no `calendar` toolset. */
  calendar?: CalendarEnvironment
  /** Which Chromium the `documents` toolset draws and prints with (default: the browser settings, else the first found) and the host's PDF printer. */
  documents?: DocumentsEnvironment
  /** The user's memories; without it the host offers no `memory` toolset. */
  memory?: MemoryToolsetEnvironment
}

function documentsEnvironment(options: BuiltinToolsetOptions): DocumentsEnvironment {
  const browser = options.browser
  const derived: DocumentsEnvironment = browser ? { executablePath: browserExecutable(browser) } : {}
  return { ...derived, ...options.documents }
}

/**
 * The one list of toolsets the host provides itself (plugins come on top and cannot replace them); add
 * new built-ins here. Each service's `load…Toolset` (in its index, imported statically: the indexes are
 * light) imports the toolset module with `import()`, and the toolset modules import their heavy
 * libraries only when a method runs. A dynamic `import('../service')` here would make the bundler
 * load, for the index's namespace, every chunk its other exports live in (the whole app, once).
 */
export async function loadBuiltinToolsets(options: BuiltinToolsetOptions = {}): Promise<Toolset[]> {
  const web = options.browser ? [await loadWebToolset(options.browser)] : []
  const knowledge = options.knowledge ? [await loadKnowledgeToolset(options.knowledge)] : []
  const email = options.email ? [await loadEmailToolset(options.email)] : []
  const memory = options.memory ? [await loadMemoryToolset(options.memory)] : []
  const calendar = options.calendar ? [await loadCalendarToolset(options.calendar)] : []
  return [
    ...(await loadFilesToolsets()),
    await loadConvertToolset(options.convert),
    ...knowledge,
    await loadSpreadsheetToolset(),
    await loadDocumentsToolset(documentsEnvironment(options)),
    ...web,
    ...email,
    ...memory,
    ...calendar,
  ]
}
