import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { rejection, sandboxes } from './sandbox'

const boxes = sandboxes('bureau-backups-')
afterAll(() => boxes.cleanup())

async function bakFiles(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((name) => name.endsWith('.bak')).sort()
}

describe('numbered backups', () => {
  it('numbers backups 001, 002, ... with the highest being the newest', async () => {
    const { workspace, root } = await boxes.make({ history: false })
    const first = await workspace.writeFile('/reports/report.xlsx', 'v1')
    expect(first.created).toBe(true)
    expect(first.backup).toBeUndefined()
    expect((await workspace.writeFile('/reports/report.xlsx', 'v2')).backup).toBe('/reports/report.001.bak')
    expect((await workspace.writeFile('/reports/report.xlsx', 'v3')).backup).toBe('/reports/report.002.bak')
    const folder = path.join(root, 'reports')
    expect(await bakFiles(folder)).toEqual(['report.001.bak', 'report.002.bak'])
    expect(await readFile(path.join(folder, 'report.001.bak'), 'utf8')).toBe('v1')
    expect(await readFile(path.join(folder, 'report.002.bak'), 'utf8')).toBe('v2')
    const listed = await workspace.listBackups('/reports/report.xlsx')
    expect(listed.map((backup) => [backup.path, backup.number, backup.size])).toEqual([
      ['/reports/report.002.bak', 2, 2],
      ['/reports/report.001.bak', 1, 2],
    ])
    await workspace.close()
  })

  it('keeps only the newest N (configurable) and never prunes a user .bak', async () => {
    const { workspace, root } = await boxes.make({ history: false, backupsToKeep: 3 })
    await writeFile(path.join(root, 'notes.000.bak'), 'the user made this one')
    for (let version = 1; version <= 7; version++) await workspace.writeFile('/notes.txt', `v${version}`)
    expect(await bakFiles(root)).toEqual(['notes.000.bak', 'notes.004.bak', 'notes.005.bak', 'notes.006.bak'])
    expect(await readFile(path.join(root, 'notes.006.bak'), 'utf8')).toBe('v6')
    expect(await readFile(path.join(root, 'notes.000.bak'), 'utf8')).toBe('the user made this one')
    await workspace.close()
  })

  it('defaults to keeping 20', async () => {
    const { workspace, root } = await boxes.make({ history: false })
    for (let version = 1; version <= 23; version++) await workspace.writeFile('/a.txt', `v${version}`)
    const kept = await bakFiles(root)
    expect(kept).toHaveLength(20)
    expect(kept[0]).toBe('a.003.bak')
    expect(kept.at(-1)).toBe('a.022.bak')
    await workspace.close()
  })

  it('restore brings back the newest backup, keeps it, and backs up what it replaced', async () => {
    const { workspace, root } = await boxes.make({ history: false })
    await workspace.writeFile('/doc.txt', 'good')
    await workspace.writeFile('/doc.txt', 'broken by the agent')
    const receipt = await workspace.restoreBackup('/doc.txt')
    expect(receipt.restoredFrom).toBe('/doc.001.bak')
    expect(receipt.backup).toBe('/doc.002.bak')
    expect(await workspace.readText('/doc.txt')).toBe('good')
    expect(await readFile(path.join(root, 'doc.001.bak'), 'utf8')).toBe('good')
    expect(await readFile(path.join(root, 'doc.002.bak'), 'utf8')).toBe('broken by the agent')
    await workspace.close()
  })

  it('restore can pick a backup by number and says which numbers exist', async () => {
    const { workspace } = await boxes.make({ history: false })
    for (const version of ['v1', 'v2', 'v3']) await workspace.writeFile('/n.txt', version)
    await workspace.restoreBackup('/n.txt', 1)
    expect(await workspace.readText('/n.txt')).toBe('v1')
    const error = await rejection(workspace.restoreBackup('/n.txt', 9))
    expect(error.code).toBe('NOT_FOUND')
    expect(error.message).toMatch(/available: 3, 2, 1/)
    expect((await rejection(workspace.restoreBackup('/never.txt'))).message).toMatch(/has no backups/)
    await workspace.close()
  })

  it('files sharing a stem share the series, and each restores its own backups', async () => {
    const { workspace } = await boxes.make({ history: false })
    await workspace.writeFile('/report.xlsx', 'xlsx v1')
    await workspace.writeFile('/report.docx', 'docx v1')
    expect((await workspace.writeFile('/report.xlsx', 'xlsx v2')).backup).toBe('/report.001.bak')
    expect((await workspace.writeFile('/report.docx', 'docx v2')).backup).toBe('/report.002.bak')
    await workspace.restoreBackup('/report.xlsx')
    await workspace.restoreBackup('/report.docx')
    expect(await workspace.readText('/report.xlsx')).toBe('xlsx v1')
    expect(await workspace.readText('/report.docx')).toBe('docx v1')
    await workspace.close()
  })

  it('append does not make backups; backupsToKeep 0 turns them off', async () => {
    const { workspace, root } = await boxes.make({ history: false, backupsToKeep: 0 })
    await workspace.writeFile('/log.txt', 'a')
    await workspace.appendText('/log.txt', 'b')
    await workspace.writeFile('/log.txt', 'c')
    expect(await bakFiles(root)).toEqual([])
    await workspace.close()
  })

  it('an overwriting move or copy backs up the replaced file', async () => {
    const { workspace } = await boxes.make({ history: false })
    await workspace.writeFile('/a.txt', 'A')
    await workspace.writeFile('/b.txt', 'B')
    expect((await rejection(workspace.copy('/a.txt', '/b.txt'))).code).toBe('CONFLICT')
    const receipt = await workspace.copy('/a.txt', '/b.txt', { overwrite: true })
    expect(receipt.backup).toBe('/b.001.bak')
    expect(await workspace.readText('/b.001.bak')).toBe('B')
    expect(await workspace.readText('/b.txt')).toBe('A')
    await workspace.close()
  })
})
