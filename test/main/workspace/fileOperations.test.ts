import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Workspace } from '../../../src/main/workspace'
import { rejection, sandboxes } from './sandbox'

const boxes = sandboxes('bureau-files-')
let workspace: Workspace
let root = ''
let outside = ''

beforeAll(async () => {
  ;({ workspace, root, outside } = await boxes.make({ history: false }))
  await workspace.writeFile('/reports/2024/q1.xlsx', 'q1')
  await workspace.writeFile('/reports/2024/q2.XLSX', 'q2')
  await workspace.writeFile('/reports/summary.md', '# Summary')
  await workspace.writeFile('/notes.txt', 'line 1\nline 2\n')
  await workspace.writeFile('/.hidden-notes', 'dot file')
})
afterAll(async () => {
  await workspace.close()
  await boxes.cleanup()
})

describe('reading and listing', () => {
  it('lists one folder with sizes and times, hiding .bureau and temp files', async () => {
    await writeFile(path.join(root, '.bureau-tmp-0123456789abcdef.tmp'), 'half written')
    const result = await workspace.list('/')
    expect(result.entries.map((entry) => [entry.path, entry.type, entry.size])).toEqual([
      ['/.hidden-notes', 'file', 8],
      ['/notes.txt', 'file', 14],
      ['/reports', 'directory', undefined],
    ])
    expect(result.total).toBe(3)
    expect(result.nextOffset).toBeUndefined()
    expect(Date.parse(result.entries[0]!.modified)).not.toBeNaN()
  })

  it('find and list --glob stay linear on a backtracking-hostile pattern against a long name', async () => {
    // picomatch took more than 40 s for this pattern (its regular expression backtracks).
    const long = `${'a'.repeat(200)}.txt`
    await workspace.writeFile(`/hostile/${long}`, 'x')
    expect((await workspace.find('*a*a*a*a*a*b', { dir: '/hostile' })).matches).toEqual([])
    const listed = await workspace.list('/hostile', { glob: '*a*a*a*a*a*b' })
    expect(listed.total).toBe(0)
    expect((await workspace.find('*a*a*a*a*a*.txt', { dir: '/hostile' })).matches.map((m) => m.name)).toEqual(
      [long],
    )
    await workspace.delete('/hostile')
  })

  it('lists recursively with a glob (case-insensitive) and pages', async () => {
    const all = await workspace.list('/reports', { recursive: true, glob: '*.xlsx' })
    expect(all.entries.map((entry) => entry.path)).toEqual(['/reports/2024/q1.xlsx', '/reports/2024/q2.XLSX'])
    const page1 = await workspace.list('/', { recursive: true, limit: 2 })
    expect(page1.entries).toHaveLength(2)
    expect(page1.nextOffset).toBe(2)
    const page2 = await workspace.list('/', { recursive: true, limit: 2, offset: page1.nextOffset })
    expect(page2.entries[0]?.path).not.toBe(page1.entries[1]?.path)
    expect(page1.total).toBe(page2.total)
  })

  it('finds by name pattern anywhere, or by path pattern', async () => {
    const byName = await workspace.find('q*.xlsx')
    expect(byName.matches.map((entry) => entry.path)).toEqual([
      '/reports/2024/q1.xlsx',
      '/reports/2024/q2.XLSX',
    ])
    const byPath = await workspace.find('2024/q1.*', { dir: '/reports' })
    expect(byPath.matches.map((entry) => entry.path)).toEqual(['/reports/2024/q1.xlsx'])
    const limited = await workspace.find('*', { limit: 1 })
    expect(limited.truncated).toBe(true)
    expect((await rejection(workspace.find('  '))).code).toBe('VALIDATION_FAILED')
  })

  it('does not list or follow links that leave the workspace', async () => {
    await symlink(outside, path.join(root, 'escape'))
    await symlink('reports', path.join(root, 'reports-link'))
    const names = (await workspace.list('/')).entries.map((entry) => entry.name)
    expect(names).not.toContain('escape')
    expect(names).toContain('reports-link')
    const recursive = (await workspace.list('/', { recursive: true })).entries.map((entry) => entry.path)
    expect(recursive.some((p) => p.startsWith('/reports-link/'))).toBe(false)
    expect(recursive.some((p) => p.includes('canary'))).toBe(false)
  })

  it('stat names files and folders by agent path', async () => {
    expect(await workspace.stat('/reports')).toMatchObject({ path: '/reports', type: 'directory' })
    expect(await workspace.stat('/notes.txt')).toMatchObject({ name: 'notes.txt', type: 'file', size: 14 })
    expect(await workspace.stat('/')).toMatchObject({ path: '/', type: 'directory' })
    const missing = await rejection(workspace.stat('/nope.txt'))
    expect(missing.code).toBe('NOT_FOUND')
    expect(missing.message).toBe('/nope.txt does not exist.')
  })

  it('gives clear errors for wrong kinds and sizes', async () => {
    expect((await rejection(workspace.readFile('/reports'))).message).toBe(
      '/reports is a folder, not a file.',
    )
    expect((await rejection(workspace.list('/notes.txt'))).message).toBe(
      '/notes.txt is a file, not a folder.',
    )
    expect((await rejection(workspace.readFile('/notes.txt', { maxBytes: 3 }))).code).toBe('TOO_LARGE')
    expect((await rejection(workspace.writeFile('/reports', 'x'))).code).toBe('CONFLICT')
    expect((await rejection(workspace.writeFile('/notes.txt/child', 'x'))).code).toBe('CONFLICT')
    expect((await rejection(workspace.writeFile('/notes.txt', 'x', { overwrite: false }))).code).toBe(
      'CONFLICT',
    )
  })
})

describe('changing files', () => {
  it('appends text, creating the file when missing', async () => {
    await workspace.appendText('/log.txt', 'a\n')
    const receipt = await workspace.appendText('/log.txt', 'b\n')
    expect(receipt).toMatchObject({ path: '/log.txt', bytes: 4, created: false })
    expect(await workspace.readText('/log.txt')).toBe('a\nb\n')
  })

  it('writes bytes exactly and creates parents', async () => {
    const bytes = new Uint8Array([0, 1, 2, 255])
    await workspace.writeFile('/bin/deep/data.bin', bytes)
    expect([...(await workspace.readFile('/bin/deep/data.bin'))]).toEqual([0, 1, 2, 255])
  })

  it('mkdir is idempotent and refuses a file in the way', async () => {
    expect(await workspace.mkdir('/new/folder')).toEqual({ path: '/new/folder', created: true })
    expect(await workspace.mkdir('/new/folder')).toEqual({ path: '/new/folder', created: false })
    expect((await rejection(workspace.mkdir('/notes.txt'))).code).toBe('CONFLICT')
    expect((await rejection(workspace.mkdir('/'))).message).toContain('root-not-allowed')
  })

  it('moves and renames files and folders, never into themselves', async () => {
    await workspace.writeFile('/m/a.txt', 'a')
    expect(await workspace.move('/m/a.txt', '/m/b.txt')).toMatchObject({ from: '/m/a.txt', to: '/m/b.txt' })
    await workspace.move('/m', '/moved/m2')
    expect(await workspace.readText('/moved/m2/b.txt')).toBe('a')
    expect((await rejection(workspace.move('/moved', '/moved/inner'))).code).toBe('CONFLICT')
    expect((await rejection(workspace.move('/', '/x'))).message).toContain('root-not-allowed')
    await workspace.writeFile('/other.txt', 'o')
    expect((await rejection(workspace.move('/other.txt', '/moved/m2/b.txt'))).code).toBe('CONFLICT')
    expect((await rejection(workspace.move('/nothing.txt', '/x.txt'))).code).toBe('NOT_FOUND')
  })

  it('copies folders file by file and skips links inside them', async () => {
    await workspace.writeFile('/tree/a.txt', 'a')
    await workspace.writeFile('/tree/sub/b.txt', 'b')
    await symlink('../notes.txt', path.join(root, 'tree', 'link.txt'))
    const receipt = await workspace.copy('/tree', '/tree-copy')
    expect(receipt).toEqual({ from: '/tree', to: '/tree-copy', type: 'directory', files: 2, skippedLinks: 1 })
    expect(await workspace.readText('/tree-copy/sub/b.txt')).toBe('b')
    expect((await readdir(path.join(root, 'tree-copy'))).sort()).toEqual(['a.txt', 'sub'])
    expect((await rejection(workspace.copy('/tree', '/tree/inside'))).code).toBe('CONFLICT')
    expect((await rejection(workspace.copy('/tree', '/tree-copy', { overwrite: true }))).code).toBe(
      'CONFLICT',
    )
  })
})

describe('trash', () => {
  it('delete moves to .bureau/trash and restoreDeleted brings it back', async () => {
    await workspace.writeFile('/trash-me/x.txt', 'x')
    const receipt = await workspace.delete('/trash-me')
    expect(receipt).toMatchObject({ path: '/trash-me', type: 'directory' })
    expect(await workspace.exists('/trash-me')).toBe(false)
    const trashed = await readdir(path.join(root, '.bureau', 'trash'))
    expect(trashed).toContain(receipt.trashId)
    expect((await workspace.listTrash()).map((entry) => entry.originalPath)).toContain('/trash-me')
    expect(await workspace.restoreDeleted(receipt.trashId)).toEqual({ path: '/trash-me', type: 'directory' })
    expect(await workspace.readText('/trash-me/x.txt')).toBe('x')
    expect((await workspace.listTrash()).some((entry) => entry.id === receipt.trashId)).toBe(false)
  })

  it('restores to another path when the old one is taken, and refuses bad ids', async () => {
    await workspace.writeFile('/dup.txt', 'old')
    const { trashId } = await workspace.delete('/dup.txt')
    await workspace.writeFile('/dup.txt', 'new')
    expect((await rejection(workspace.restoreDeleted(trashId))).code).toBe('CONFLICT')
    await workspace.restoreDeleted(trashId, '/dup-restored.txt')
    expect(await workspace.readText('/dup-restored.txt')).toBe('old')
    expect((await rejection(workspace.restoreDeleted('../../etc'))).code).toBe('NOT_FOUND')
    expect((await rejection(workspace.delete('/'))).message).toContain('root-not-allowed')
  })
})

describe('createWorkspace', () => {
  it('creates a missing root and validates settings', async () => {
    const { base } = await boxes.make()
    const { createWorkspace } = await import('../../../src/main/workspace')
    const fresh = createWorkspace({ root: path.join(base, 'a', 'b', 'c'), history: false })
    expect((await fresh.list('/')).entries).toEqual([])
    await mkdir(path.join(base, 'x'))
    expect(() => createWorkspace({ root: path.join(base, 'x'), backupsToKeep: -1 })).toThrow(
      /Invalid workspace settings/,
    )
    await fresh.close()
  })
})
