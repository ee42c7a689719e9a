import { open, readdir, readFile, rename, symlink, unlink } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { WriteFs, WriteHandle } from '../../../src/main/workspace/anchored/fsSeam'
import { AppError } from '../../../src/shared/errors'
import { rejection, sandboxes, tempFilesIn } from './sandbox'

const boxes = sandboxes('bureau-crash-')
afterAll(() => boxes.cleanup())

const realFs: WriteFs = {
  open: (hostPath, flags, mode) => open(hostPath, flags, mode),
  rename: (from, to) => rename(from, to),
  unlink: (hostPath) => unlink(hostPath),
}

function ioError(code: string): Error {
  return Object.assign(new Error(`${code}: simulated failure, at /somewhere/secret/host/path`), { code })
}

/** A seam that behaves like the disk until `fail` says otherwise. */
function faultyFs(faults: { rename?: boolean; partialWrite?: boolean; sync?: boolean; open?: boolean }) {
  const calls: string[] = []
  const fs: WriteFs = {
    async open(hostPath, flags, mode) {
      calls.push(`open ${flags}`)
      if (faults.open && flags === 'wx') throw ioError('EACCES')
      const handle = await realFs.open(hostPath, flags, mode)
      if (flags !== 'wx') return handle
      const wrapped: WriteHandle = {
        async writeFile(data) {
          calls.push('write')
          if (faults.partialWrite) {
            await handle.writeFile(data.subarray(0, Math.floor(data.byteLength / 2)))
            throw ioError('ENOSPC')
          }
          await handle.writeFile(data)
        },
        async sync() {
          calls.push('sync')
          if (faults.sync) throw ioError('EIO')
          await handle.sync()
        },
        close: () => handle.close(),
      }
      return wrapped
    },
    async rename(from, to) {
      calls.push('rename')
      if (faults.rename) throw ioError('EIO')
      await realFs.rename(from, to)
    },
    unlink: (hostPath) => {
      calls.push('unlink')
      return realFs.unlink(hostPath)
    },
  }
  return { fs, calls }
}

const ORIGINAL = 'original content that must survive\n'.repeat(100)
const REPLACEMENT = 'new content\n'.repeat(500)

describe('atomic writes under failure', () => {
  it.each([
    ['the rename fails after the temp file was written and synced', { rename: true }],
    ['the disk fills up halfway through the write', { partialWrite: true }],
    ['fsync fails', { sync: true }],
  ])('%s: original intact, no temp file left', async (_name, faults) => {
    const seam = faultyFs(faults)
    const box = await boxes.make({ fs: seam.fs, history: false })
    const hostFile = path.join(box.root, 'docs', 'report.txt')
    await box.workspace.mkdir('/docs')
    // the first write goes through the seam as well; create the original with the real disk instead
    await import('node:fs/promises').then((fs) => fs.writeFile(hostFile, ORIGINAL))

    const error = await rejection(box.workspace.writeFile('/docs/report.txt', REPLACEMENT, { backup: false }))
    expect(error).toBeInstanceOf(AppError)
    expect(error.message).toContain('/docs/report.txt')
    expect(error.message).not.toContain('/somewhere/secret')
    expect(error.message).not.toContain(box.root)

    expect(await readFile(hostFile, 'utf8')).toBe(ORIGINAL)
    expect(await tempFilesIn(box.root)).toEqual([])
    expect(seam.calls).toContain('unlink')
    expect((await readdir(path.join(box.root, 'docs'))).sort()).toEqual(['report.txt'])
    await box.workspace.close()
  })

  it('the write order is temp write, fsync, rename (then the folder is synced)', async () => {
    const seam = faultyFs({})
    const box = await boxes.make({ fs: seam.fs, history: false })
    await box.workspace.writeFile('/a.txt', 'hello')
    expect(seam.calls).toEqual(['open wx', 'write', 'sync', 'rename', 'open r'])
    expect(await box.workspace.readText('/a.txt')).toBe('hello')
    await box.workspace.close()
  })

  it('a new file whose write fails does not appear at all', async () => {
    const box = await boxes.make({ fs: faultyFs({ rename: true }).fs, history: false })
    await rejection(box.workspace.writeFile('/new.txt', 'data'))
    expect(await box.workspace.exists('/new.txt')).toBe(false)
    expect(await tempFilesIn(box.root)).toEqual([])
    await box.workspace.close()
  })

  it('a temp file that cannot be created leaves the folder as it was', async () => {
    const box = await boxes.make({ fs: faultyFs({ open: true }).fs, history: false })
    const error = await rejection(box.workspace.writeFile('/new.txt', 'data'))
    expect(error.code).toBe('FORBIDDEN')
    expect(await readdir(box.root)).toEqual([])
    await box.workspace.close()
  })

  it('keeps the backup of the original when the replace fails', async () => {
    const box = await boxes.make({ fs: faultyFs({ rename: true }).fs, history: false })
    await import('node:fs/promises').then((fs) => fs.writeFile(path.join(box.root, 'r.txt'), ORIGINAL))
    await rejection(box.workspace.writeFile('/r.txt', REPLACEMENT))
    expect(await box.workspace.readText('/r.txt')).toBe(ORIGINAL)
    expect(await box.workspace.readText('/r.001.bak')).toBe(ORIGINAL)
    await box.workspace.close()
  })

  it('a folder swapped for an outside link between the check and the rename: the write stays in the checked folder', async () => {
    let box: Awaited<ReturnType<typeof boxes.make>> | undefined
    const swapping: WriteFs = {
      ...realFs,
      async open(hostPath, flags, mode) {
        const handle = await realFs.open(hostPath, flags, mode)
        if (flags === 'wx' && box) {
          // After the temp file exists, replace its folder with a link to the canary folder.
          await rename(path.join(box.root, 'docs'), path.join(box.root, 'docs-moved'))
          await symlink(box.outside, path.join(box.root, 'docs'))
        }
        return handle
      },
    }
    box = await boxes.make({ fs: swapping, history: false })
    await box.workspace.mkdir('/docs')
    const before = await box.snapshotOutside()
    // The write goes through the folder that was opened and checked (now /docs-moved), never the link.
    await box.workspace.writeFile('/docs/canary.txt', 'pwned')
    expect(await readFile(path.join(box.root, 'docs-moved', 'canary.txt'), 'utf8')).toBe('pwned')
    expect(await box.snapshotOutside()).toEqual(before)
    expect(await tempFilesIn(box.base)).toEqual([])
    await box.workspace.close()
  })

  it('a folder moved outside the workspace between the check and the rename is refused', async () => {
    let box: Awaited<ReturnType<typeof boxes.make>> | undefined
    const moving: WriteFs = {
      ...realFs,
      async open(hostPath, flags, mode) {
        const handle = await realFs.open(hostPath, flags, mode)
        if (flags === 'wx' && box) await rename(path.join(box.root, 'docs'), path.join(box.outside, 'docs'))
        return handle
      },
    }
    box = await boxes.make({ fs: moving, history: false })
    await box.workspace.mkdir('/docs')
    const error = await rejection(box.workspace.writeFile('/docs/new.txt', 'pwned'))
    expect(error.code).toBe('FORBIDDEN')
    expect(error.message).toContain('symlink-escape')
    expect(await readdir(path.join(box.outside, 'docs'))).toEqual([])
    await box.workspace.close()
  })
})
