import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFilesToolsets } from '../../../src/main/files'
import {
  createToolSession,
  getCatalog,
  invoke,
  runTerminalCommand,
  type ToolSession,
} from '../../../src/main/tools'
import type { Workspace } from '../../../src/main/workspace'
import { CANARY, sandboxes } from '../workspace/sandbox'

const boxes = sandboxes('bureau-toolsets-')
let session: ToolSession
let workspace: Workspace
let base = ''
let snapshot: () => Promise<Record<string, string>>

beforeAll(async () => {
  const box = await boxes.make()
  ;({ workspace, base } = box)
  snapshot = box.snapshotOutside
  session = createToolSession({ toolsets: [...(await loadFilesToolsets())], workspace })
})
afterAll(async () => {
  await session.dispose()
  await workspace.close()
  await boxes.cleanup()
})

const run = (command: string) => runTerminalCommand(session, command)

function value<T = Record<string, unknown>>(result: Awaited<ReturnType<typeof run>>): T {
  if (!result.ok) expect.fail(`expected success, got: ${result.error}`)
  return result.value as T
}

describe('files toolset (CLI mode)', () => {
  it('write_text, read and list: the issue flow', async () => {
    expect(value(await run('files write_text /notes/a.txt "hello"'))).toMatchObject({
      path: '/notes/a.txt',
      bytes: 5,
      created: true,
    })
    expect(value(await run('files read /notes/a.txt'))).toMatchObject({ content: 'hello', total_lines: 1 })
    const listing = value<{ entries: Array<{ path: string }> }>(await run('files list /'))
    expect(listing.entries.map((entry) => entry.path)).toEqual(['/notes'])
  })

  it('refuses /../outside.txt with the rule and without content or host path', async () => {
    const before = await snapshot()
    const result = await run('files read /../outside.txt')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.stage).toBe('run')
    expect(result.error).toContain('leaves-root')
    expect(result.error).not.toContain(CANARY)
    expect(result.error).not.toContain(base)
    expect(await snapshot()).toEqual(before)
  })

  it('reads line ranges and pages long content', async () => {
    const lines = Array.from({ length: 50 }, (_, index) => `line ${index + 1}`).join('\n')
    await workspace.writeFile('/long.txt', `${lines}\n`)
    expect(value(await run('files read /long.txt --start_line 10 --end_line 12'))).toMatchObject({
      content: 'line 10\nline 11\nline 12',
      start_line: 10,
      end_line: 12,
      total_lines: 50,
      truncated: false,
    })
    const capped = value(await run('files read /long.txt --max_chars 100'))
    expect(capped).toMatchObject({ start_line: 1, truncated: true })
    expect(String(capped.content).length).toBeLessThanOrEqual(100)
    expect(capped.next_start_line).toBe(Number(capped.end_line) + 1)
    const pastEnd = await run('files read /long.txt --start_line 99')
    expect(pastEnd.ok || pastEnd.error).toMatch(/has 50 lines/)
  })

  it('points documents and binary files to convert', async () => {
    await workspace.writeFile('/report.docx', 'PK fake')
    await workspace.writeFile('/blob.dat', new Uint8Array([1, 0, 2, 0]))
    for (const file of ['/report.docx', '/blob.dat']) {
      const result = await run(`files read ${file}`)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error).toMatch(/read it with convert to_markdown/)
    }
  })

  it('overwrite keeps a backup; restore_backup and list_backups work', async () => {
    await run('files write_text /b.txt first')
    expect(value(await run('files write_text /b.txt second'))).toMatchObject({ backup: '/b.001.bak' })
    expect(value(await run('files list_backups /b.txt'))).toMatchObject({
      backups: [{ path: '/b.001.bak', number: 1 }],
    })
    expect(value(await run('files restore_backup /b.txt'))).toMatchObject({ restored_from: '/b.001.bak' })
    expect(await workspace.readText('/b.txt')).toBe('first')
  })

  it('append_text, mkdir, move, copy, stat, find', async () => {
    await run('files append_text /log.txt "a"')
    await run('files append_text /log.txt "b"')
    expect(await workspace.readText('/log.txt')).toBe('ab')
    expect(value(await run('files mkdir /archive/2025'))).toEqual({ path: '/archive/2025', created: true })
    expect(value(await run('files move /log.txt /archive/2025/log.txt'))).toMatchObject({
      files: 1,
      type: 'file',
    })
    expect(value(await run('files copy /archive /archive-copy'))).toMatchObject({
      type: 'directory',
      files: 1,
    })
    expect(value(await run('files stat /archive-copy/2025/log.txt'))).toMatchObject({ type: 'file', size: 2 })
    const found = value<{ matches: Array<{ path: string }> }>(await run('files find log.txt'))
    expect(found.matches.map((match) => match.path)).toEqual([
      '/archive-copy/2025/log.txt',
      '/archive/2025/log.txt',
    ])
    const conflict = await run('files move /b.txt /archive-copy/2025/log.txt')
    expect(!conflict.ok && conflict.error).toMatch(/already exists; pass overwrite/)
  })

  it('delete goes to the trash; list_trash and restore_deleted bring it back', async () => {
    const deleted = value<{ trash_id: string }>(await run('files delete /archive-copy'))
    const trash = value<{ items: Array<{ trash_id: string; path: string }> }>(await run('files list_trash'))
    expect(trash.items).toContainEqual(
      expect.objectContaining({ trash_id: deleted.trash_id, path: '/archive-copy' }),
    )
    expect(value(await run(`files restore_deleted ${deleted.trash_id}`))).toEqual({
      path: '/archive-copy',
      type: 'directory',
    })
  })

  it('refuses writes into .bureau and hides it from list', async () => {
    const result = await run('files write_text /.bureau/history/HEAD "ref: refs/heads/evil"')
    expect(!result.ok && result.error).toMatch(/internal-folder/)
    const listing = value<{ entries: Array<{ name: string }> }>(await run('files list / --recursive'))
    expect(listing.entries.some((entry) => entry.name === '.bureau')).toBe(false)
  })
})

describe('history toolset', () => {
  it('lists versions and restores a deleted file', async () => {
    await run('files write_text /h.txt v1')
    await run('files write_text /h.txt v2')
    await run('files delete /h.txt')
    const listed = value<{ versions: Array<{ version: string; change: string }> }>(
      await run('history list /h.txt'),
    )
    expect(listed.versions.map((entry) => entry.change)).toEqual(['deleted', 'modified', 'added'])
    expect(value(await run('history restore /h.txt'))).toMatchObject({ path: '/h.txt', created: true })
    expect(await workspace.readText('/h.txt')).toBe('v2')
    const oldest = listed.versions[2]!.version
    expect(value(await run(`history restore /h.txt --version ${oldest}`))).toMatchObject({
      restored_from: oldest,
    })
    expect(await workspace.readText('/h.txt')).toBe('v1')
  })
})

describe('API mode', () => {
  it('exposes snake_case function tools with JSON Schema parameters', () => {
    const names = getCatalog(session.registry.list(), 'api').tools.map((tool) => tool.function.name)
    for (const name of [
      'files_list',
      'files_read',
      'files_write_text',
      'files_delete',
      'history_list',
      'history_restore',
    ]) {
      expect(names).toContain(name)
    }
  })

  it('invokes with JSON arguments and returns refusals as text', async () => {
    const ok = await invoke(session, 'files_write_text', { path: '/api.txt', content: 'from api' })
    expect(ok.ok).toBe(true)
    const refused = await invoke(session, 'files_read', '{"path": "C:\\\\Windows\\\\win.ini"}')
    expect(!refused.ok && refused.error).toMatch(/drive-letter/)
    expect(path.isAbsolute(workspace.root)).toBe(true)
  })
})
