import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest'
import { loadFilesToolsets } from '../../../src/main/files'
import { createToolSession, runTerminalArgv, type ToolSession } from '../../../src/main/tools'
import type { Workspace } from '../../../src/main/workspace'
import { REQUIREMENTS_ENFORCED, recordSkip } from '../../support/requirements'
import { sandboxes } from './sandbox'

// A named pipe in the workspace made `files write_text` wait forever (the backup copy
// opened it blocking), and every such call took one of libuv's four file-system threads with it.
const boxes = sandboxes('bureau-fifo-')
let workspace: Workspace
let session: ToolSession
let root = ''
let skipReason = ''

beforeAll(async () => {
  const box = await boxes.make({ history: false })
  ;({ workspace, root } = box)
  session = createToolSession({ toolsets: [...(await loadFilesToolsets())], workspace })
  try {
    execFileSync('mkfifo', [path.join(root, 'p.txt')])
    execFileSync('mkfifo', [path.join(root, 'folder-pipe')])
  } catch {
    skipReason = 'mkfifo is not available here'
    if (!REQUIREMENTS_ENFORCED)
      recordSkip('named pipes in the workspace', [{ reason: skipReason, apt: ['coreutils'] }])
  }
  await writeFile(path.join(root, 'plain.txt'), 'plain')
})
afterAll(async () => {
  await session.dispose()
  await workspace.close()
  await boxes.cleanup()
})

/** Named pipes can be made here; otherwise the test is skipped (it fails under BUREAU_CI). */
function needPipes(skip: TestContext['skip']): void {
  if (!skipReason) return
  if (REQUIREMENTS_ENFORCED) throw new Error(`named pipes cannot be made here: ${skipReason}`)
  skip(skipReason)
}

const calls: Array<[string, string[]]> = [
  ['write_text', ['files', 'write_text', '/p.txt', 'hello']],
  ['append_text', ['files', 'append_text', '/p.txt', 'hello']],
  ['read', ['files', 'read', '/p.txt']],
  ['copy from', ['files', 'copy', '/p.txt', '/copy.txt']],
  ['copy over', ['files', 'copy', '/plain.txt', '/p.txt', '--overwrite']],
  ['move over', ['files', 'move', '/plain.txt', '/p.txt', '--overwrite']],
  ['restore_backup', ['files', 'restore_backup', '/p.txt']],
  ['delete', ['files', 'delete', '/p.txt']],
]

describe('named pipes and other non-regular files', () => {
  it.for(calls)(
    'files %s on a named pipe is refused at once, not left waiting',
    async ([, argv], { skip }) => {
      needPipes(skip)
      const result = await runTerminalArgv(session, argv)
      if (result.ok) expect.fail(`files ${argv.join(' ')} on a named pipe succeeded`)
      expect(result.error).toMatch(/not a regular file or folder|has no backups/)
    },
  )

  it('leaves the file-system threads free: many refused pipe calls, then ordinary writes still work', async ({
    skip,
  }) => {
    needPipes(skip)
    const refused = await Promise.all(
      Array.from({ length: 12 }, () => runTerminalArgv(session, ['files', 'write_text', '/p.txt', 'x'])),
    )
    expect(refused.every((result) => !result.ok)).toBe(true)
    for (let index = 0; index < 4; index++) {
      const result = await runTerminalArgv(session, ['files', 'write_text', `/after-${index}.txt`, 'ok'])
      expect(result.ok).toBe(true)
    }
    expect(await workspace.readText('/after-3.txt')).toBe('ok')
  })

  it('leaves pipes out of listings and folder copies', async ({ skip }) => {
    needPipes(skip)
    await workspace.mkdir('/box')
    execFileSync('mkfifo', [path.join(root, 'box', 'inner-pipe')])
    await workspace.writeFile('/box/a.txt', 'a')
    const names = (await workspace.list('/')).entries.map((entry) => entry.name)
    expect(names).not.toContain('p.txt')
    expect((await workspace.copy('/box', '/box-copy')).files).toBe(1)
    expect((await workspace.list('/box-copy')).entries.map((entry) => entry.name)).toEqual(['a.txt'])
  })
})
