import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { rejection, sandboxes } from './sandbox'

const boxes = sandboxes('bureau-history-')
afterAll(() => boxes.cleanup())

function gitAvailable(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

describe('history', () => {
  it('lists the versions of an overwritten file and restores an older one', async () => {
    const { workspace } = await boxes.make()
    const first = await workspace.writeFile('/plan.md', '# Plan v1')
    const second = await workspace.writeFile('/plan.md', '# Plan v2')
    expect(first.version).toMatch(/^[0-9a-f]{10}$/)
    expect(second.version).not.toBe(first.version)

    const versions = await workspace.history.list('/plan.md')
    expect(versions.map((entry) => [entry.version, entry.change])).toEqual([
      [second.version, 'modified'],
      [first.version, 'added'],
    ])
    expect(versions[0]?.message).toBe('write /plan.md')

    const receipt = await workspace.history.restore('/plan.md', first.version!)
    expect(receipt.restoredFrom).toBe(first.version)
    expect(await workspace.readText('/plan.md')).toBe('# Plan v1')
    expect(new TextDecoder().decode(await workspace.history.read('/plan.md', second.version!))).toBe(
      '# Plan v2',
    )
    // the restore is itself a version, so it can be undone too
    expect((await workspace.history.list('/plan.md'))[0]?.message).toMatch(/^restore \/plan\.md from version/)
    await workspace.close()
  })

  it('restores a deleted file (default version: the newest one with content)', async () => {
    const { workspace } = await boxes.make()
    await workspace.writeFile('/gone/notes.txt', 'keep me')
    await workspace.writeFile('/gone/notes.txt', 'keep me, edited')
    await workspace.delete('/gone/notes.txt')
    expect(await workspace.exists('/gone/notes.txt')).toBe(false)
    const versions = await workspace.history.list('/gone/notes.txt')
    expect(versions.map((entry) => entry.change)).toEqual(['deleted', 'modified', 'added'])

    const deletion = versions[0]!.version
    const error = await rejection(workspace.history.restore('/gone/notes.txt', deletion))
    expect(error.code).toBe('NOT_FOUND')
    expect(error.message).toMatch(/no content in version/)

    await workspace.history.restore('/gone/notes.txt')
    expect(await workspace.readText('/gone/notes.txt')).toBe('keep me, edited')
    await workspace.close()
  })

  it('snapshots a user file before the first change, so the original is in the history', async () => {
    const { workspace, root } = await boxes.make()
    await writeFile(path.join(root, 'budget.csv'), 'user,original\n')
    await workspace.writeFile('/budget.csv', 'agent,changed\n')
    const versions = await workspace.history.list('/budget.csv')
    expect(versions).toHaveLength(2)
    await workspace.history.restore('/budget.csv', versions[1]!.version)
    expect(await workspace.readText('/budget.csv')).toBe('user,original\n')
    await workspace.close()
  })

  it('records moves, copies, trash restores and appends', async () => {
    const { workspace } = await boxes.make()
    await workspace.writeFile('/a.txt', 'A')
    await workspace.move('/a.txt', '/moved/b.txt')
    await workspace.copy('/moved/b.txt', '/c.txt')
    await workspace.appendText('/c.txt', '+')
    expect((await workspace.history.list('/a.txt')).map((entry) => entry.change)).toEqual([
      'deleted',
      'added',
    ])
    expect((await workspace.history.list('/moved/b.txt'))[0]?.message).toBe('move /a.txt -> /moved/b.txt')
    expect((await workspace.history.list('/c.txt')).map((entry) => entry.message)).toEqual([
      'append /c.txt',
      'copy /moved/b.txt -> /c.txt',
    ])
    const { trashId } = await workspace.delete('/moved')
    await workspace.restoreDeleted(trashId)
    expect((await workspace.history.list('/moved/b.txt'))[0]?.message).toBe('restore /moved from trash')
    await workspace.close()
  })

  it('refuses unknown and malformed versions clearly', async () => {
    const { workspace } = await boxes.make()
    await workspace.writeFile('/x.txt', 'x')
    expect((await rejection(workspace.history.restore('/x.txt', 'deadbeef00'))).message).toMatch(/No version/)
    expect((await rejection(workspace.history.restore('/x.txt', '../HEAD'))).code).toBe('VALIDATION_FAILED')
    expect((await rejection(workspace.history.restore('/never.txt'))).message).toMatch(/no recorded versions/)
    await workspace.close()
  })

  it('can be turned off', async () => {
    const { workspace, root } = await boxes.make({ history: false })
    const receipt = await workspace.writeFile('/x.txt', 'x')
    expect(receipt.version).toBeUndefined()
    expect(workspace.history.enabled).toBe(false)
    expect((await rejection(workspace.history.list('/x.txt'))).code).toBe('UNAVAILABLE')
    expect(await import('node:fs').then((fs) => fs.existsSync(path.join(root, '.bureau', 'history')))).toBe(
      false,
    )
    await workspace.close()
  })

  it.runIf(gitAvailable())(
    'is a repository any git client can read, holding only files Bureau changed',
    async () => {
      const { workspace, root } = await boxes.make()
      await writeFile(path.join(root, 'untouched-by-agent.txt'), 'private')
      await workspace.writeFile('/notes/a.txt', 'one')
      await workspace.writeFile('/notes/a.txt', 'two')
      await workspace.writeFile('/b.txt', 'b')
      await workspace.delete('/b.txt')
      const gitdir = path.join(root, '.bureau', 'history')
      const git = (...args: string[]) =>
        execFileSync('git', [`--git-dir=${gitdir}`, ...args], { encoding: 'utf8' })
      expect(git('ls-files').trim().split('\n')).toEqual(['notes/a.txt'])
      expect(git('log', '--format=%s').trim().split('\n')).toEqual([
        'delete /b.txt',
        'write /b.txt',
        'write /notes/a.txt',
        'write /notes/a.txt',
      ])
      expect(git('show', 'HEAD~2:notes/a.txt')).toBe('two')
      expect(git('fsck', '--no-progress').trim()).toBe('')
      // the work tree is the workspace, so status works and shows no change
      expect(git('status', '--porcelain').trim()).toBe('')
      await workspace.close()
    },
  )
  it.runIf(gitAvailable())("stays out of the user's own repository when the workspace is one", async () => {
    const { workspace, root } = await boxes.make()
    execFileSync('git', ['init', '-q', root])
    await workspace.writeFile('/mine.txt', 'x')
    await workspace.writeFile('/mine.txt', 'y')
    await workspace.delete('/mine.txt')
    const status = execFileSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=all'], {
      encoding: 'utf8',
    })
    expect(status).not.toContain('.bureau')
    expect(status).toContain('mine.001.bak')
    await workspace.close()
  })
  if (!gitAvailable()) console.log('skipped the plain-git check: no git binary on PATH')
})
