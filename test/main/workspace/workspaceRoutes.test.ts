import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createWorkspace, workspaceHandlers } from '../../../src/main/workspace'
import { isAppError } from '../../../src/shared/errors'
import { EntryName } from '../../../src/shared/ipc'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-workspace-routes-')

async function routes() {
  const root = await dirs.make()
  const workspace = createWorkspace({ root, history: false })
  return { root, workspace, handlers: workspaceHandlers({ workspace: () => workspace }) }
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure')
    },
    (error: unknown) => error,
  )

describe('the Workspace page’s routes', () => {
  it('upload, new folder, rename, delete and undo: each answers with the entry read back from disk', async () => {
    const { root, handlers, workspace } = await routes()
    const bytes = new TextEncoder().encode('Budget: 1200')
    const uploaded = await handlers['workspace.upload']({
      folder: '/',
      name: 'notes.txt',
      bytes,
      replace: false,
    })
    expect(uploaded).toMatchObject({ path: '/notes.txt', name: 'notes.txt', type: 'file', size: 12 })
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('Budget: 1200')
    // The same name again is a clear conflict, and the file is unchanged.
    const again = await failure(
      handlers['workspace.upload']({
        folder: '/',
        name: 'notes.txt',
        bytes: new Uint8Array([1]),
        replace: false,
      }),
    )
    expect(isAppError(again) && again.message).toBe(
      'A file or folder called "notes.txt" is already in this folder.',
    )
    expect(await readFile(join(root, 'notes.txt'), 'utf8')).toBe('Budget: 1200')

    expect(await handlers['workspace.mkdir']({ folder: '/', name: 'Reports' })).toMatchObject({
      path: '/Reports',
      type: 'directory',
    })
    const renamed = await handlers['workspace.rename']({ path: '/notes.txt', name: 'budget.txt' })
    expect(renamed).toMatchObject({ path: '/budget.txt', size: 12 })
    expect(await workspace.exists('/notes.txt')).toBe(false)

    const deleted = await handlers['workspace.delete']({ path: '/budget.txt' })
    expect(await workspace.exists('/budget.txt')).toBe(false)
    const restored = await handlers['workspace.restoreDeleted']({ trashId: deleted.trashId })
    expect(restored).toMatchObject({ path: '/budget.txt', size: 12 })
    expect(await readFile(join(root, 'budget.txt'), 'utf8')).toBe('Budget: 1200')
    expect((await handlers['workspace.root']()).hostPath).toBe(workspace.root)
  })

  it('search finds names anywhere by a part of them, glob characters taken as text', async () => {
    const { handlers } = await routes()
    await handlers['workspace.mkdir']({ folder: '/', name: 'q3' })
    for (const [folder, name] of [
      ['/', 'Budget 2026.xlsx'],
      ['/q3', 'budget-final.docx'],
      ['/q3', 'minutes.md'],
      ['/', 'a*b.txt'],
    ] as const)
      await handlers['workspace.upload']({ folder, name, bytes: new Uint8Array([65]), replace: false })
    const found = await handlers['workspace.search']({ query: 'BUDGET' })
    expect(found.entries.map((e) => e.path).sort()).toEqual(['/Budget 2026.xlsx', '/q3/budget-final.docx'])
    expect((await handlers['workspace.search']({ query: 'a*b' })).entries.map((e) => e.name)).toEqual([
      'a*b.txt',
    ])
  })

  it('a numbered backup names the file it backs up', async () => {
    const { root, handlers, workspace } = await routes()
    await workspace.writeFile('/test.xlsx', 'one')
    await workspace.writeFile('/test.xlsx', 'two')
    await writeFile(join(root, 'other.001.bak'), 'a backup Bureau did not make')
    const listed = await handlers['workspace.list']({ path: '/' })
    expect(listed.find((e) => e.name === 'test.001.bak')?.backupOf).toEqual({ path: '/test.xlsx', number: 1 })
    expect(listed.find((e) => e.name === 'other.001.bak')?.backupOf).toBeUndefined()
  })

  it('refuses names that are not one plain name', () => {
    for (const name of ['', '  ', 'a/b', 'a\\b', '..'])
      expect(EntryName.safeParse(name).success, JSON.stringify(name)).toBe(false)
    expect(EntryName.parse('  Q3 report.docx ')).toBe('Q3 report.docx')
  })
})
