import { mkdtempSync, rmSync } from 'node:fs'
import { open as openFile, rename, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { loadSpreadsheetToolset } from '../../../src/main/spreadsheet'
import { createToolSession, invoke, type ToolSession } from '../../../src/main/tools'
import { createWorkspace } from '../../../src/main/workspace'
import type { WriteFs } from '../../../src/main/workspace/anchored/fsSeam'
import type { CreatedWorkspace } from '../../../src/main/workspace/createWorkspace'

export interface Harness {
  root: string
  workspace: CreatedWorkspace
  session: ToolSession
  call<T = Record<string, unknown>>(method: string, args: Record<string, unknown>): Promise<T>
  fail(method: string, args: Record<string, unknown>): Promise<string>
  newSession(): Promise<ToolSession>
  cleanup(): Promise<void>
}

export async function createHarness(options: { fs?: WriteFs } = {}): Promise<Harness> {
  const root = mkdtempSync(path.join(tmpdir(), 'bureau-sheet-'))
  const workspace = createWorkspace({ root, history: true, ...(options.fs ? { fs: options.fs } : {}) })
  const toolset = await loadSpreadsheetToolset()
  const make = () => createToolSession({ toolsets: [toolset], workspace })
  const harness: Harness = {
    root,
    workspace,
    session: make(),
    async call<T>(method: string, args: Record<string, unknown>) {
      const result = await invoke(harness.session, `spreadsheet_${method}`, args)
      if (!result.ok) throw new Error(`${method} failed: ${result.error}`)
      return result.value as T
    },
    async fail(method: string, args: Record<string, unknown>) {
      const result = await invoke(harness.session, `spreadsheet_${method}`, args)
      if (result.ok) throw new Error(`${method} should have failed`)
      return result.error
    },
    async newSession() {
      await harness.session.dispose()
      harness.session = make()
      return harness.session
    },
    async cleanup() {
      await harness.session.dispose()
      await workspace.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
  return harness
}

/** A harness with a new workbook at `path` whose sheet holds `values` from A1 (not yet saved). */
export async function harnessWithSheet(
  path: string,
  sheet: string,
  values: readonly (readonly unknown[])[],
): Promise<Harness> {
  const harness = await createHarness()
  await harness.call('create', { path, sheet })
  await harness.call('set_range', { path, sheet, start: 'A1', values })
  return harness
}

/** A file system whose renames fail with EIO while `failing.rename` is true (a save's last step). */
export function renameFailingFs(): { fs: WriteFs; failing: { rename: boolean } } {
  const failing = { rename: false }
  const fs: WriteFs = {
    open: (p, flags, mode) => openFile(p, flags, mode),
    rename: async (from, to) => {
      if (failing.rename) throw Object.assign(new Error('EIO: simulated'), { code: 'EIO' })
      await rename(from, to)
    },
    unlink: (p) => unlink(p),
  }
  return { fs, failing }
}
