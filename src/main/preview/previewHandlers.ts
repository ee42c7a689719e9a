import { posix } from 'node:path'
import { AppError } from '../../shared/errors'
import { PREVIEW_FIRST_ROWS, type PreviewDescription, type PreviewVersionEntry } from '../../shared/ipc'
import type { Workspace } from '../workspace'
import {
  describeCalendar,
  describeDocx,
  describeEmail,
  describeHtml,
  describeText,
  kindOf,
} from './describeFile'
import { compareWorkbooks, readWorkbook, type WorkbookModel } from './sheet/readWorkbook'

/** Files larger than this are refused with a message rather than read. */
export const MAX_PREVIEW_BYTES = 100 * 1024 * 1024
/** Changed cells one compare lists at most. */
export const MAX_COMPARED_CELLS = 20_000
const CACHED_WORKBOOKS = 3

export interface PreviewHandlerOptions {
  workspace: () => Workspace
  /** Restores a history version (`h:<id>`) or a backup (`b:<n>`) through its toolset; returns its receipt. */
  restore: (path: string, version: string) => Promise<{ path: string; restoredFrom: string; bytes: number }>
  /** Draws one PDF page (PDFium); `pageCount` without rendering when `page` is 0. */
  renderPdf: (
    bytes: Uint8Array,
    page: number,
    width: number,
  ) => Promise<{ pageCount: number; page?: { width: number; height: number; bytes: Uint8Array } }>
}

interface Loaded {
  bytes: Uint8Array<ArrayBuffer>
  name: string
  size: number
  /** What identifies these bytes for the cache. */
  key: string
}

/** The `preview.*` routes: what the preview pane shows of workspace files and their stored versions. */
export function previewHandlers(options: PreviewHandlerOptions) {
  const workbooks = new Map<string, Promise<WorkbookModel>>()

  const load = async (path: string, version: string): Promise<Loaded> => {
    const workspace = options.workspace()
    const info = await workspace.stat(path)
    if (info.type !== 'file') throw new AppError('VALIDATION_FAILED', `${info.path} is a folder, not a file.`)
    const tooLarge = (size: number) =>
      new AppError(
        'TOO_LARGE',
        `${info.name} is ${Math.round(size / 2 ** 20)} MB; the preview shows files up to ${MAX_PREVIEW_BYTES / 2 ** 20} MB. Open it in its app instead.`,
      )
    if (version === 'current') {
      if ((info.size ?? 0) > MAX_PREVIEW_BYTES) throw tooLarge(info.size ?? 0)
      const bytes = new Uint8Array(await workspace.readFile(path, { maxBytes: MAX_PREVIEW_BYTES }))
      return {
        bytes,
        name: info.name,
        size: bytes.length,
        key: `${info.path}\0${info.modified}\0${info.size}`,
      }
    }
    if (version.startsWith('h:')) {
      const bytes = new Uint8Array(await workspace.history.read(path, version.slice(2)))
      if (bytes.length > MAX_PREVIEW_BYTES) throw tooLarge(bytes.length)
      return { bytes, name: info.name, size: bytes.length, key: `${info.path}\0${version}` }
    }
    const number = Number(version.slice(2))
    const backup = (await workspace.listBackups(path)).find((b) => b.number === number)
    if (!backup) throw new AppError('NOT_FOUND', `${info.path} has no backup number ${number}.`)
    if (backup.size > MAX_PREVIEW_BYTES) throw tooLarge(backup.size)
    const bytes = new Uint8Array(await workspace.readFile(backup.path, { maxBytes: MAX_PREVIEW_BYTES }))
    return { bytes, name: info.name, size: bytes.length, key: `${info.path}\0${version}\0${backup.modified}` }
  }

  // Which bytes a path and version name, from a stat (not a read), so a cached workbook is found without
  // reading the file again for every page of rows.
  const keyOf = async (path: string, version: string): Promise<string> => {
    const info = await options.workspace().stat(path)
    return version === 'current' ? `${info.path}\0${info.modified}\0${info.size}` : `${info.path}\0${version}`
  }

  const workbook = async (path: string, version: string): Promise<WorkbookModel> => {
    const cached = version.startsWith('b:') ? undefined : workbooks.get(await keyOf(path, version))
    if (cached) return cached
    return workbookOf(await load(path, version))
  }

  // The promise is cached, so a page asked for while the workbook is still opening waits for the same read.
  const workbookOf = (loaded: Loaded): Promise<WorkbookModel> => {
    const cached = workbooks.get(loaded.key)
    if (cached) {
      workbooks.delete(loaded.key)
      workbooks.set(loaded.key, cached)
      return cached
    }
    const model = readWorkbook(loaded.bytes)
    workbooks.set(loaded.key, model)
    model.catch(() => {
      if (workbooks.get(loaded.key) === model) workbooks.delete(loaded.key)
    })
    while (workbooks.size > CACHED_WORKBOOKS) workbooks.delete(workbooks.keys().next().value as string)
    return model
  }

  const sheetOf = (model: WorkbookModel, name: string) => {
    const sheet = model.sheets.find((s) => s.info.name === name)
    if (!sheet)
      throw new AppError(
        'NOT_FOUND',
        `The workbook has no sheet "${name}"; its sheets: ${model.sheets.map((s) => s.info.name).join(', ')}.`,
      )
    return sheet
  }

  return {
    'preview.describe': async (input: { path: string; version: string }): Promise<PreviewDescription> => {
      const loaded = await load(input.path, input.version)
      const path = options.workspace().toAgent(await options.workspace().resolve(input.path))
      const common = { path, name: loaded.name, size: loaded.size, version: input.version }
      const { kind, mimeType, language } = kindOf(loaded.name, loaded.bytes.subarray(0, 16))
      switch (kind) {
        case 'sheet': {
          const model = await workbookOf(loaded)
          // A large sheet goes on being read after the first page is out: its row count and merges follow.
          for (const sheet of model.sheets)
            if (sheet.info.rowsExact === false) void sheet.complete().catch(() => undefined)
          // The first page of the sheet the pane shows comes with the answer: no second request to wait for.
          const first = model.sheets.find((s) => !s.info.hidden)
          const firstRows =
            first && first.info.rows > 0
              ? { sheet: first.info.name, rows: await first.rows(1, PREVIEW_FIRST_ROWS) }
              : undefined
          return {
            kind: 'sheet',
            ...common,
            sheets: model.sheets.map((s) => s.info),
            styles: model.styles.styles,
            ...(firstRows && { firstRows }),
          }
        }
        case 'pdf': {
          const { pageCount } = await options.renderPdf(loaded.bytes, 0, 0)
          return { kind: 'pdf', ...common, pages: pageCount }
        }
        case 'image':
          return { kind: 'image', ...common, mimeType: mimeType ?? 'application/octet-stream' }
        case 'text':
          return describeText(loaded.bytes, common, language ?? 'plaintext')
        case 'docx':
          return describeDocx(loaded.bytes, common)
        case 'html':
          return describeHtml(loaded.bytes, common)
        case 'email':
          return describeEmail(loaded.bytes, common)
        case 'calendar':
          return describeCalendar(loaded.bytes, common)
        default:
          return {
            kind: 'unsupported',
            ...common,
            reason: `The preview cannot show ${posix.extname(loaded.name) || 'this kind of'} files; open it in its app or download it.`,
          }
      }
    },
    'preview.sheetRows': async (input: {
      path: string
      version: string
      sheet: string
      from: number
      count: number
    }) => {
      const sheet = sheetOf(await workbook(input.path, input.version), input.sheet)
      const rows = await sheet.rows(input.from, input.count)
      const complete = sheet.info.rowsExact !== false
      return {
        rows,
        sheet: complete
          ? { rows: sheet.info.rows, complete, merges: sheet.info.merges }
          : { rows: sheet.info.rows, complete },
      }
    },
    'preview.pdfPage': async (input: { path: string; version: string; page: number; width: number }) => {
      const loaded = await load(input.path, input.version)
      const { page } = await options.renderPdf(loaded.bytes, input.page, input.width)
      if (!page) throw new AppError('HANDLER_FAILED', `Page ${input.page} could not be drawn.`)
      return { page: input.page, width: page.width, height: page.height, bytes: new Uint8Array(page.bytes) }
    },
    'preview.bytes': async (input: { path: string; version: string }) => {
      const loaded = await load(input.path, input.version)
      const { kind, mimeType } = kindOf(loaded.name, loaded.bytes.subarray(0, 16))
      if (kind !== 'image')
        throw new AppError('UNSUPPORTED', `${loaded.name} is not a picture; the pane reads it another way.`)
      return { mimeType: mimeType ?? 'application/octet-stream', bytes: loaded.bytes }
    },
    'preview.versions': async (input: { path: string }) => {
      const workspace = options.workspace()
      const info = await workspace.stat(input.path)
      const versions: PreviewVersionEntry[] = [
        { version: 'current', source: 'current', label: 'Now', date: info.modified },
      ]
      const history = workspace.history.enabled ? await workspace.history.list(input.path, 50) : []
      const stored = history.filter((h) => h.change !== 'deleted')
      // The newest history version usually is the file now: then it is listed once, as "Now".
      const newest = stored[0]
      if (newest) {
        const [now, recorded] = await Promise.all([
          workspace.readFile(input.path, { maxBytes: MAX_PREVIEW_BYTES }),
          workspace.history.read(input.path, newest.version),
        ])
        if (Buffer.compare(now, Buffer.from(recorded)) === 0) stored.shift()
      }
      for (const h of stored)
        versions.push({ version: `h:${h.version}`, source: 'history', label: h.message, date: h.date })
      for (const b of (await workspace.listBackups(input.path)).sort((a, b) => b.number - a.number))
        versions.push({
          version: `b:${b.number}`,
          source: 'backup',
          label: `Backup ${posix.basename(b.path)}`,
          date: b.modified,
        })
      return { versions }
    },
    'preview.compare': async (input: { path: string; version: string; against: string }) => {
      const [next, previous] = await Promise.all([
        workbook(input.path, input.version),
        workbook(input.path, input.against),
      ])
      return await compareWorkbooks(next, previous, MAX_COMPARED_CELLS)
    },
    'preview.restore': async (input: { path: string; version: string }) => {
      workbooks.clear()
      return options.restore(input.path, input.version)
    },
  }
}
