import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliInProcess } from '../../support/inProcessCli'
import { tempDirs } from '../../support/tempDir'

// The "done when", through the built `bureau tool` command.
const dirs = tempDirs('bureau-files-cli-')
let base = ''
let workspace = ''
const SECRET = 'outside secret that must not be printed'

beforeAll(async () => {
  base = await dirs.make()
  workspace = path.join(base, 'W')
  await writeFile(path.join(base, 'outside.txt'), SECRET)
})
afterAll(() => dirs.cleanup())

const tool = (...args: string[]) =>
  runCliInProcess(['tool', '--workspace', workspace, '--data-dir', path.join(base, 'data'), ...args])

describe('bureau tool files', () => {
  it('write_text, read and list work', async () => {
    const written = await tool('files', 'write_text', '/notes/a.txt', 'hello')
    expect(written.code).toBe(0)
    expect(JSON.parse(written.stdout)).toMatchObject({ path: '/notes/a.txt', bytes: 5, created: true })
    expect(await readFile(path.join(workspace, 'notes', 'a.txt'), 'utf8')).toBe('hello')

    const read = await tool('files', 'read', '/notes/a.txt')
    expect(read.code).toBe(0)
    expect(JSON.parse(read.stdout)).toMatchObject({ path: '/notes/a.txt', content: 'hello' })

    const listed = await tool('files', 'list', '/')
    expect(listed.code).toBe(0)
    expect(JSON.parse(listed.stdout).entries).toEqual([
      expect.objectContaining({ path: '/notes', type: 'directory' }),
    ])
  })

  it('read /../outside.txt exits 1 with a clear message and no content', async () => {
    const result = await tool('files', 'read', '/../outside.txt')
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/Path refused \(leaves-root\)/)
    expect(result.stderr).not.toContain(SECRET)
    expect(result.stderr).not.toContain(base)
    expect(await readFile(path.join(base, 'outside.txt'), 'utf8')).toBe(SECRET)
  })

  it('a stdin session: overwrite, history list and restore', async () => {
    const commands = [
      'files write_text /s.txt one',
      'files write_text /s.txt two',
      'history list /s.txt',
      'files read /../../etc/passwd',
    ].join('\n')
    const result = await runCliInProcess(
      ['tool', '--workspace', workspace, '--data-dir', path.join(base, 'data'), '-'],
      { input: `${commands}\n` },
    )
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines).toHaveLength(4)
    expect(lines[1]).toMatchObject({ ok: true, value: { backup: '/s.001.bak' } })
    expect(lines[2].value.versions.map((v: { change: string }) => v.change)).toEqual(['modified', 'added'])
    expect(lines[3]).toMatchObject({ ok: false })
    expect(lines[3].error).toMatch(/leaves-root/)
    expect(result.code).toBe(1)
  })
})
