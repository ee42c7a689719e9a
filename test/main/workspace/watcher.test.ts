import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { WorkspaceChanged } from '../../../src/main/workspace'
import { sandboxes } from './sandbox'

const boxes = sandboxes('bureau-watch-')
afterAll(() => boxes.cleanup())

describe('workspace watcher', () => {
  it('emits debounced workspace.changed batches with agent paths and ignores .bureau/', async () => {
    const events: WorkspaceChanged[] = []
    const box = await boxes.make({ onChange: (event) => events.push(event), watchDebounceMs: 50 })
    await box.workspace.ready
    const paths = () => events.flatMap((event) => event.changes.map((change) => change.path))

    // history commits, backups manifest and trash all live in .bureau; a direct write there too
    await box.workspace.writeFile('/notes/a.txt', 'one')
    await box.workspace.writeFile('/notes/a.txt', 'two')
    await mkdir(path.join(box.root, '.bureau', 'scratch'), { recursive: true })
    await writeFile(path.join(box.root, '.bureau', 'scratch', 'x.txt'), 'internal')
    await writeFile(path.join(box.root, 'user.txt'), 'made by the user')

    await vi.waitFor(() => expect(paths()).toContain('/user.txt'), { timeout: 10_000, interval: 50 })
    await vi.waitFor(() => expect(paths()).toContain('/notes/a.txt'), { timeout: 10_000, interval: 50 })
    expect(paths()).toContain('/notes/a.001.bak')
    expect(paths().every((p) => p.startsWith('/'))).toBe(true)
    expect(paths().some((p) => p.includes('.bureau/') || p === '/.bureau')).toBe(false)
    expect(paths().some((p) => p.includes('.bureau-tmp-'))).toBe(false)
    expect(paths().some((p) => p.includes(box.root))).toBe(false)
    // coalesced: one entry per path per batch
    for (const event of events) {
      const batch = event.changes.map((change) => change.path)
      expect(new Set(batch).size).toBe(batch.length)
    }
    await box.workspace.close()
  })

  it('reports deletes and stops after close', async () => {
    const events: WorkspaceChanged[] = []
    const box = await boxes.make({ history: false })
    await box.workspace.writeFile('/gone.txt', 'x')
    const watcher = await box.workspace.watch({ onChange: (event) => events.push(event), debounceMs: 30 })
    await watcher.ready
    await box.workspace.delete('/gone.txt')
    await vi.waitFor(
      () =>
        expect(events.flatMap((event) => event.changes)).toContainEqual({
          path: '/gone.txt',
          kind: 'unlink',
        }),
      { timeout: 10_000, interval: 50 },
    )
    await watcher.close()
    const seen = events.length
    await box.workspace.writeFile('/after-close.txt', 'x')
    // give a stray event time to arrive: the assertion is about absence, not about speed
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(events.length).toBe(seen)
    await box.workspace.close()
  })
})
