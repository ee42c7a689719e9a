import { AppError } from '../../shared/errors'
import type { FlushFailure } from '../tools'
import type { Workspace } from '../workspace'
import type { OpenWorkbook } from './openWorkbook'
import type { Outline } from './outlineWorkbook'
import type { Parts } from './packageParts'
import type { SaveReport, WriteBytes } from './saveWorkbook'

// exceljs and the formula engine load on first use, not when the toolset is registered.
const engine = () => Promise.all([import('./loadWorkbook'), import('./saveWorkbook')])
const outlineLoader = () => import('./outlineWorkbook')

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

/**
 * The workbooks one tool session has open, keyed by agent path. Saving goes through `write`, which is
 * the workspace's atomic write with numbered backup and history.
 */
export class WorkbookStore {
  private readonly open = new Map<string, OpenWorkbook>()
  /** Workbooks only read so far (`peek`), with the bytes they were read from for the whole load. */
  private readonly outlines = new Map<string, { outline: Outline; bytes: Uint8Array }>()
  private readonly loading = new Map<string, Promise<OpenWorkbook>>()
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
    return this.open.has(key) || this.outlines.has(key)
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
    return this.open.get(key) ?? this.loadWhole(key, checkWorkbookPath(path))
  }

  /**
   * One load per workbook at a time: calls that run at once (an MCP client may send several) share it,
   * so no call edits a copy that another load then replaces.
   */
  private loadWhole(
    key: string,
    agentPath: string,
    read?: { bytes: Uint8Array; parts?: Parts },
  ): Promise<OpenWorkbook> {
    let pending = this.loading.get(key)
    if (!pending) {
      pending = (async () => {
        // The outline's bytes, not the file again: the workbook is the one that was opened.
        const bytes = read?.bytes ?? this.outlines.get(key)?.bytes ?? (await this.readBytes(agentPath))
        const [{ loadWorkbook }] = await engine()
        const loaded = await loadWorkbook(agentPath, bytes, read?.parts)
        this.open.set(key, loaded)
        this.outlines.delete(key)
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
    const loaded = this.open.get(key) ?? (await this.loading.get(key))
    if (loaded) return { open: loaded }
    const outlined = this.outlines.get(key)
    if (outlined) return outlined.outline
    const agentPath = checkWorkbookPath(path)
    const bytes = await this.readBytes(agentPath)
    const outline = await (await outlineLoader()).loadOutline(agentPath, bytes)
    // A load that began meanwhile wins: an outline kept beside it would go stale at its first edit.
    const landed = this.open.get(key) ?? (await this.loading.get(key))
    if (landed) return { open: landed }
    if (!outline || 'parts' in outline)
      return { open: await this.loadWhole(key, agentPath, { bytes, parts: outline?.parts }) }
    this.outlines.set(key, { outline, bytes })
    return outline
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

  async save(path: string, target?: string): Promise<SaveReport> {
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
    const had = this.open.get(key)?.dirty ?? false
    this.open.delete(key)
    this.outlines.delete(key)
    return had
  }

  async close(path: string, save: boolean): Promise<SaveReport | null> {
    const key = this.key(path)
    const open = this.open.get(key)
    if (this.outlines.delete(key) && !open) return null
    if (!open) throw new AppError('NOT_FOUND', `${checkWorkbookPath(path)} is not open`)
    const report = save && open.dirty ? await saveWorkbook(open, open.path, this.write) : null
    this.open.delete(key)
    return report
  }

  /** Saves every workbook with pending changes now; a failed one stays open with its changes. */
  async flushAll(): Promise<FlushFailure[]> {
    const failures: FlushFailure[] = []
    for (const open of this.open.values()) {
      if (!open.dirty) continue
      try {
        await saveWorkbook(open, open.path, this.write)
      } catch (error) {
        failures.push({ path: open.path, error: error instanceof Error ? error.message : String(error) })
      }
    }
    return failures
  }

  /** Saves every workbook with pending changes (end of session); reports each failure. */
  async disposeAll(): Promise<void> {
    const failures: string[] = []
    for (const open of this.open.values()) {
      if (!open.dirty) continue
      try {
        await saveWorkbook(open, open.path, this.write)
      } catch (error) {
        failures.push(`${open.path}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    this.open.clear()
    this.outlines.clear()
    if (failures.length > 0) throw new AppError('HANDLER_FAILED', `Could not save: ${failures.join('; ')}`)
  }
}
