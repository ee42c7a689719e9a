import { AppError } from '../../../shared/errors'
import type { FlushFailure } from '../../tools'
import type { Workspace } from '../../workspace'
import type { Area, CellRef } from '../cells/address'
import type { CellInput } from '../cells/writeCell'
import type { Parts } from '../ooxml/packageParts'
import type { Outline } from '../outline/outlineWorkbook'
import type { OpenWorkbook } from './openWorkbook'
import type { AreaReceipt } from './receipt'
import type { SaveReport, WriteBytes } from './saveWorkbook'

/**
 * A module imported on first use and kept: importing a loaded module again still goes through the
 * module loader (and its hooks) on every call.
 */
function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined
  return () => {
    loaded ??= load()
    loaded.catch(() => {
      loaded = undefined
    })
    return loaded
  }
}

// exceljs and the formula engine load on first use, not when the toolset is registered.
const engine = lazy(() => Promise.all([import('./loadWorkbook'), import('./saveWorkbook')]))
const outlineLoader = lazy(() => import('../outline/outlineWorkbook'))
const outlineEditor = lazy(() => import('../outline/outlineEdits'))

async function saveWorkbook(open: OpenWorkbook, target: string, write: WriteBytes): Promise<SaveReport> {
  return (await import('./saveWorkbook')).saveWorkbook(open, target, write)
}

const XLSX = /\.xlsx$/i

export function checkWorkbookPath(path: string): string {
  const trimmed = path.trim()
  if (!XLSX.test(trimmed)) {
    const ext = /\.[^./]+$/.exec(trimmed)?.[0]
    throw new AppError(
      'UNSUPPORTED',
      `${trimmed} is not an .xlsx path${ext ? ` (${ext} files are not supported; convert them to .xlsx first)` : ''}`,
    )
  }
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}

/** A workbook read only as an outline, with the bytes it was read from (for the whole load). */
interface OutlineEntry {
  outline: Outline
  bytes: Uint8Array
  /** A save of the outline under way: other calls wait for it to end (it never rejects). */
  saving?: Promise<void>
}

/** Sheet name -> columns the save pass sized, kept across a save that drops the workbook from memory. */
type AutoSized = Map<string, number[]>

/**
 * The workbooks one tool session has open, keyed by agent path. Saving goes through `write`, which is
 * the workspace's atomic write with numbered backup and history.
 */
export class WorkbookStore {
  private readonly open = new Map<string, OpenWorkbook>()
  /** Workbooks read as an outline (`peek`); writes that need no other cell are kept there too. */
  private readonly outlines = new Map<string, OutlineEntry>()
  private readonly loading = new Map<string, Promise<OpenWorkbook>>()
  private readonly peeking = new Map<string, Promise<{ open: OpenWorkbook; areas?: Outline['areas'] }>>()
  private readonly autoSized = new Map<string, AutoSized>()
  /** Outlines dropped by their save: still open for the agent, read again from the file on next use. */
  private readonly saved = new Set<string>()
  readonly write: WriteBytes

  constructor(private readonly workspace: () => Workspace) {
    this.write = async (path, bytes) => {
      const receipt = await this.workspace().writeFile(path, bytes, { message: `spreadsheet: save ${path}` })
      return {
        ...(receipt.backup ? { backup: receipt.backup } : {}),
        ...(receipt.version ? { version: receipt.version } : {}),
      }
    }
  }

  private key(path: string): string {
    return checkWorkbookPath(path).toLowerCase()
  }

  isOpen(path: string): boolean {
    const key = this.key(path)
    return this.open.has(key) || this.outlines.has(key) || this.saved.has(key)
  }

  private async readBytes(agentPath: string): Promise<Uint8Array> {
    const ws = this.workspace()
    if (!(await ws.exists(agentPath)))
      throw new AppError('NOT_FOUND', `No workbook at ${agentPath}; use create to make a new one`)
    return ws.readFile(agentPath)
  }

  /** The workbook loaded whole, for any method that reads cells beyond the outline or changes it. */
  async get(path: string): Promise<OpenWorkbook> {
    const key = this.key(path)
    await this.outlines.get(key)?.saving
    return this.open.get(key) ?? this.loadWhole(key, checkWorkbookPath(path))
  }

  /**
   * One load per workbook at a time: calls that run at once (an MCP client may send several) share it,
   * so no call edits a copy that another load then replaces. Writes kept by the outline are made again
   * on the whole workbook.
   */
  private loadWhole(
    key: string,
    agentPath: string,
    read?: { bytes: Uint8Array; parts?: Parts },
  ): Promise<OpenWorkbook> {
    let pending = this.loading.get(key)
    if (!pending) {
      pending = (async () => {
        const outlined = this.outlines.get(key)
        // The outline's bytes, not the file again: the workbook is the one that was opened.
        const bytes = read?.bytes ?? outlined?.bytes ?? (await this.readBytes(agentPath))
        const [{ loadWorkbook }] = await engine()
        const loaded = await loadWorkbook(agentPath, bytes, read?.parts)
        const edits = outlined?.outline.edits
        const editor = edits || this.autoSized.has(key) ? await outlineEditor() : undefined
        if (edits) editor?.replayCalls(loaded, edits)
        editor?.markAutoSized(loaded, this.autoSized.get(key))
        this.open.set(key, loaded)
        this.outlines.delete(key)
        this.saved.delete(key)
        return loaded
      })().finally(() => this.loading.delete(key))
      this.loading.set(key, pending)
    }
    return pending
  }

  /**
   * For `open` and `describe_worksheet`: the workbook if it is loaded, else its outline (plain data
   * sheets: first rows and used areas, without building every cell); the whole workbook when the outline
   * cannot answer for it.
   */
  async peek(path: string): Promise<{ open: OpenWorkbook; areas?: Outline['areas'] }> {
    const key = this.key(path)
    await this.outlines.get(key)?.saving
    const loaded = this.open.get(key) ?? (await this.loading.get(key))
    if (loaded) return { open: loaded }
    const outlined = this.outlines.get(key)
    if (outlined) return outlined.outline
    // Calls that arrive at once share one outline: a write kept by another copy would be lost.
    let peeking = this.peeking.get(key)
    if (!peeking) {
      peeking = this.outlineOf(key, checkWorkbookPath(path)).finally(() => this.peeking.delete(key))
      this.peeking.set(key, peeking)
    }
    return peeking
  }

  private async outlineOf(
    key: string,
    agentPath: string,
  ): Promise<{ open: OpenWorkbook; areas?: Outline['areas'] }> {
    const bytes = await this.readBytes(agentPath)
    // The editor loads beside the outline: the first write should not wait for it.
    const [loader] = await Promise.all([outlineLoader(), outlineEditor()])
    const outline = await loader.loadOutline(agentPath, bytes)
    // A load that began meanwhile wins: an outline kept beside it would go stale at its first edit.
    const landed = this.open.get(key) ?? (await this.loading.get(key))
    if (landed) return { open: landed }
    if (!outline || 'parts' in outline)
      return { open: await this.loadWhole(key, agentPath, { bytes, parts: outline?.parts }) }
    if (this.autoSized.has(key)) (await outlineEditor()).markAutoSized(outline.open, this.autoSized.get(key))
    this.outlines.set(key, { outline, bytes })
    this.saved.delete(key)
    return outline
  }

  /**
   * The workbook's outline (read now if the workbook is not open yet), or undefined when it is loaded
   * whole, being loaded or being saved.
   */
  private async currentOutline(path: string): Promise<Outline | undefined> {
    const key = this.key(path)
    if (this.open.has(key) || this.loading.has(key)) return undefined
    await this.peek(path)
    const entry = this.outlines.get(key)
    // Checked again after the wait: a whole load may have begun meanwhile.
    if (!entry || entry.saving || this.open.has(key) || this.loading.has(key)) return undefined
    return entry.outline
  }

  /**
   * Writes `values` without loading the workbook whole when it is (or can be) read as an outline and
   * the write needs no other cell (outlineEdits.ts); `startOf` places the block from the sheet's used
   * area. Returns the area receipt, or undefined when the caller must write through `get`.
   */
  async writeOutlined(
    path: string,
    sheet: string,
    values: CellInput[][],
    startOf: (used: Area | undefined) => CellRef,
  ): Promise<AreaReceipt | undefined> {
    const [outline, editor] = await Promise.all([this.currentOutline(path), outlineEditor()])
    if (!outline) return undefined
    const ws = outline.open.sheet(sheet)
    return editor.writeOutlined(outline, ws, startOf(outline.areas.get(ws.id)), values)
  }

  /**
   * The outline, for a method that can work on it without loading every cell (it falls back to `get`
   * when this is undefined: the workbook is loaded whole, being loaded or being saved).
   */
  outlined(path: string): Promise<Outline | undefined> {
    return this.currentOutline(path)
  }

  /**
   * For reading cells: the outline (when the workbook is one) with sheet `sheet`, its used area and a
   * reader of any of its cells (kept writes, rows not loaded); undefined when it is loaded whole.
   */
  async readOutlined(path: string, sheet: string) {
    const [outline, editor] = await Promise.all([this.currentOutline(path), outlineEditor()])
    if (!outline) return undefined
    const ws = outline.open.sheet(sheet)
    if (!outline.sheets.has(ws.id)) return undefined
    return {
      open: outline.open,
      ws,
      used: outline.areas.get(ws.id),
      read: editor.outlineCellReader(outline, ws),
    }
  }

  async create(path: string, sheet: string): Promise<OpenWorkbook> {
    const agentPath = checkWorkbookPath(path)
    if (this.isOpen(path) || (await this.workspace().exists(agentPath)))
      throw new AppError(
        'CONFLICT',
        `${agentPath} already exists; use open to edit it or choose another path`,
      )
    const [{ createWorkbook }] = await engine()
    const created = await createWorkbook(agentPath, sheet)
    this.open.set(this.key(path), created)
    return created
  }

  /**
   * Saves an outline whose sheets can all be saved from their bytes (`savableOutline`): the rows it did
   * not load are copied from the file it was read from. The outline is dropped after a save that wrote
   * the file; the next call reads the file again.
   */
  private saveOutlined(key: string, entry: OutlineEntry, target: string): Promise<SaveReport> {
    const saving = (async () => {
      const [editor, { saveOutline }] = await Promise.all([outlineEditor(), import('../outline/outlineSave')])
      const report = await saveOutline(entry.outline, target, this.write)
      this.autoSized.set(this.key(target), editor.autoSizedOf(entry.outline.open))
      if (this.outlines.get(key) === entry) this.outlines.delete(key)
      this.saved.add(this.key(target))
      return report
    })()
    // Others wait for the save to end, whatever its outcome (its failure goes to this caller alone).
    const ended = saving.then(
      () => {},
      () => {},
    )
    entry.saving = ended
    void ended.then(() => {
      if (entry.saving === ended) entry.saving = undefined
    })
    return saving
  }

  async save(path: string, target?: string): Promise<SaveReport> {
    const key = this.key(path)
    await this.outlines.get(key)?.saving
    const entry = this.outlines.get(key)
    // Otherwise the whole load below makes the outline's writes again.
    const savable = entry && (await outlineEditor()).savableOutline(entry.outline)
    if (entry && savable && this.outlines.get(key) === entry && !entry.saving && !this.open.has(key))
      if (!this.loading.has(key))
        return this.saveOutlined(key, entry, target ? checkWorkbookPath(target) : entry.outline.open.path)
    const open = await this.get(path)
    const to = target ? checkWorkbookPath(target) : open.path
    const report = await saveWorkbook(open, to, this.write)
    if (target && this.key(target) !== this.key(path)) {
      this.open.delete(this.key(path))
      ;(open as { path: string }).path = to
      this.open.set(this.key(target), open)
    }
    return report
  }

  /** Forgets the in-memory copy (after a restore the file on disk is the truth). */
  forget(path: string): boolean {
    const key = this.key(path)
    const had = (this.open.get(key) ?? this.outlines.get(key)?.outline.open)?.dirty ?? false
    this.open.delete(key)
    this.outlines.delete(key)
    this.saved.delete(key)
    this.autoSized.delete(key)
    return had
  }

  async close(path: string, save: boolean): Promise<SaveReport | null> {
    const key = this.key(path)
    await this.outlines.get(key)?.saving
    const open = this.open.get(key)
    const outlined = this.outlines.get(key)
    if (outlined && !open) {
      const report = save && outlined.outline.open.dirty ? await this.save(path) : null
      this.outlines.delete(key)
      this.open.delete(key)
      this.saved.delete(key)
      return report
    }
    if (!open && this.saved.delete(key)) return null
    if (!open) throw new AppError('NOT_FOUND', `${checkWorkbookPath(path)} is not open`)
    const report = save && open.dirty ? await saveWorkbook(open, open.path, this.write) : null
    this.open.delete(key)
    return report
  }

  /** Every workbook with pending changes, loaded or outlined, and how to save it. */
  private pendingSaves(): { path: string; save: () => Promise<unknown> }[] {
    const saves: { path: string; save: () => Promise<unknown> }[] = []
    for (const open of this.open.values())
      if (open.dirty) saves.push({ path: open.path, save: () => saveWorkbook(open, open.path, this.write) })
    for (const [key, entry] of this.outlines) {
      const open = entry.outline.open
      if (open.dirty && !this.open.has(key)) saves.push({ path: open.path, save: () => this.save(open.path) })
    }
    return saves
  }

  /** Saves every workbook with pending changes now; a failed one stays open with its changes. */
  async flushAll(): Promise<FlushFailure[]> {
    const failures: FlushFailure[] = []
    for (const { path, save } of this.pendingSaves()) {
      try {
        await save()
      } catch (error) {
        failures.push({ path, error: error instanceof Error ? error.message : String(error) })
      }
    }
    return failures
  }

  /** Saves every workbook with pending changes (end of session); reports each failure. */
  async disposeAll(): Promise<void> {
    const failures = (await this.flushAll()).map((failure) => `${failure.path}: ${failure.error}`)
    this.open.clear()
    this.outlines.clear()
    this.saved.clear()
    if (failures.length > 0) throw new AppError('HANDLER_FAILED', `Could not save: ${failures.join('; ')}`)
  }
}
