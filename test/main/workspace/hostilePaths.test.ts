import { mkdir, readFile, symlink } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Workspace } from '../../../src/main/workspace'
import { PathRefusedError, type PathRule } from '../../../src/main/workspace/errors'
import { isWindowsDeviceName } from '../../../src/main/workspace/nameRules'
import { AppError } from '../../../src/shared/errors'
import { rejection, sandboxes } from './sandbox'

interface HostileCase {
  readonly name: string
  readonly path: unknown
  readonly rule: PathRule
}

const longPath = `/${'a'.repeat(200)}/`.repeat(25)

// Windows device names: reserved there, ordinary files on Linux and macOS.
const deviceNames: HostileCase[] = [
  { name: 'CON', path: '/CON', rule: 'reserved-name' },
  { name: 'con.txt', path: '/con.txt', rule: 'reserved-name' },
  { name: 'NUL', path: '/NUL', rule: 'reserved-name' },
  { name: 'nul.tar.gz', path: '/nul.tar.gz', rule: 'reserved-name' },
  { name: 'COM1', path: '/COM1', rule: 'reserved-name' },
  { name: 'lpt9.log', path: '/docs/lpt9.log', rule: 'reserved-name' },
  { name: 'mixed-case Aux.Txt', path: '/Aux.Txt', rule: 'reserved-name' },
  { name: 'superscript COM¹', path: '/COM\u00B9', rule: 'reserved-name' },
  { name: 'fullwidth ＣＯＮ', path: '/\uFF23\uFF2F\uFF2E', rule: 'reserved-name' },
  { name: 'CONIN$', path: '/CONIN$', rule: 'reserved-name' },
]

// Traversal in every spelling we know, host paths, hidden characters, bad names and link tricks.
const corpus: HostileCase[] = [
  // plain traversal
  { name: 'bare ..', path: '..', rule: 'leaves-root' },
  { name: '/..', path: '/..', rule: 'leaves-root' },
  { name: 'rooted traversal to a sibling file', path: '/../outside.txt', rule: 'leaves-root' },
  { name: 'relative traversal', path: '../outside.txt', rule: 'leaves-root' },
  { name: 'traversal after a folder', path: '/a/../../outside.txt', rule: 'leaves-root' },
  { name: 'dot then traversal', path: '/./../outside.txt', rule: 'leaves-root' },
  {
    name: 'mixed dots into the canary folder',
    path: '/notes/./../../outside/canary.txt',
    rule: 'leaves-root',
  },
  { name: 'deep traversal to /etc/passwd', path: '/../../../../../../etc/passwd', rule: 'leaves-root' },
  { name: 'doubled slashes between ..', path: '..//..//outside.txt', rule: 'leaves-root' },
  // URL-encoded traversal
  { name: '%2e%2e folder', path: '/%2e%2e/outside.txt', rule: 'percent-encoding' },
  { name: '..%2f', path: '/..%2foutside.txt', rule: 'percent-encoding' },
  { name: 'fully encoded ../', path: '%2e%2e%2foutside.txt', rule: 'percent-encoding' },
  { name: 'double-encoded %252e', path: '/%252e%252e/outside.txt', rule: 'percent-encoding' },
  { name: 'overlong UTF-8 slash %c0%af', path: '/..%c0%afoutside.txt', rule: 'percent-encoding' },
  { name: 'encoded backslash %5c', path: '/..%5coutside.txt', rule: 'percent-encoding' },
  { name: 'upper-case %2E%2E', path: '/%2E%2E/%2E%2E/outside.txt', rule: 'percent-encoding' },
  // backslash spellings
  { name: 'backslash traversal', path: '..\\outside.txt', rule: 'backslash' },
  { name: 'rooted backslash traversal', path: '/..\\..\\outside.txt', rule: 'backslash' },
  { name: 'leading single backslash', path: '\\..\\outside.txt', rule: 'backslash' },
  // Unicode look-alikes
  { name: 'fullwidth full stops', path: '/\uFF0E\uFF0E/outside.txt', rule: 'look-alike-character' },
  { name: 'two-dot leader', path: '/\u2025/outside.txt', rule: 'look-alike-character' },
  { name: 'fullwidth solidus', path: '/..\uFF0Foutside.txt', rule: 'look-alike-character' },
  { name: 'division slash', path: '/..\u2215outside.txt', rule: 'look-alike-character' },
  { name: 'fraction slash', path: '/..\u2044outside.txt', rule: 'look-alike-character' },
  { name: 'fullwidth reverse solidus', path: '/..\uFF3Coutside.txt', rule: 'look-alike-character' },
  { name: 'small full stops', path: '/\uFE52\uFE52/outside.txt', rule: 'look-alike-character' },
  { name: 'vertical two-dot leader', path: '/\uFE30/outside.txt', rule: 'look-alike-character' },
  { name: 'one-dot leaders', path: '/\u2024\u2024/outside.txt', rule: 'look-alike-character' },
  { name: 'fullwidth percent encoding', path: '/\uFF052e\uFF052e/outside.txt', rule: 'look-alike-character' },
  { name: 'three dots', path: '/...', rule: 'trailing-dot-or-space' },
  { name: 'four dots', path: '/..../outside.txt', rule: 'trailing-dot-or-space' },
  // host paths
  { name: 'Windows drive path', path: 'C:\\Windows\\win.ini', rule: 'drive-letter' },
  { name: 'drive with forward slashes', path: 'C:/Windows/win.ini', rule: 'drive-letter' },
  { name: 'bare drive', path: 'c:', rule: 'drive-letter' },
  { name: 'drive-relative path', path: 'D:outside.txt', rule: 'drive-letter' },
  { name: 'UNC share', path: '\\\\server\\share\\file.txt', rule: 'unc-path' },
  { name: 'UNC with forward slashes', path: '//server/share/file.txt', rule: 'unc-path' },
  { name: 'Win32 device namespace', path: '\\\\?\\C:\\outside.txt', rule: 'unc-path' },
  { name: 'physical drive device', path: '\\\\.\\PhysicalDrive0', rule: 'unc-path' },
  { name: 'file:// URL', path: 'file:///etc/passwd', rule: 'url-scheme' },
  { name: 'file://localhost URL', path: 'file://localhost/etc/passwd', rule: 'url-scheme' },
  { name: 'upper-case FILE: URL', path: 'FILE:/outside.txt', rule: 'url-scheme' },
  { name: 'https URL', path: 'https://example.com/a.txt', rule: 'url-scheme' },
  { name: 'drive inside an agent path', path: '/C:/Windows', rule: 'colon' },
  { name: 'home shortcut', path: '~/outside.txt', rule: 'home-shortcut' },
  { name: 'other user home', path: '~root/.ssh/id_rsa', rule: 'home-shortcut' },
  // NUL, control and invisible characters
  { name: 'NUL before an extension', path: '/a.txt\u0000.png', rule: 'control-character' },
  { name: 'lone NUL', path: '/\u0000', rule: 'control-character' },
  { name: 'newline', path: '/a\nb.txt', rule: 'control-character' },
  { name: 'carriage return', path: '/a\rb', rule: 'control-character' },
  { name: 'ANSI escape', path: '/\u001b[31mred', rule: 'control-character' },
  { name: 'DEL', path: '/a\u007f', rule: 'control-character' },
  { name: 'C1 next line', path: '/\u0085x', rule: 'control-character' },
  { name: 'right-to-left override', path: '/\u202Etxt.exe', rule: 'bidi-control' },
  { name: 'left-to-right mark', path: '/a\u200E.txt', rule: 'bidi-control' },
  { name: 'right-to-left isolate', path: '/\u2067a.txt', rule: 'bidi-control' },
  { name: 'pop directional isolate', path: '/a\u2069.txt', rule: 'bidi-control' },
  { name: 'zero-width space', path: '/a\u200Bb', rule: 'invisible-character' },
  {
    name: 'zero-width joiner after .bureau',
    path: '/.bureau\u200D/history/config',
    rule: 'invisible-character',
  },
  { name: 'zero-width non-joiner in Latin', path: '/re\u200Cport.txt', rule: 'invisible-character' },
  { name: 'word joiner', path: '/a\u2060b', rule: 'invisible-character' },
  { name: 'soft hyphen', path: '/re\u00ADport.txt', rule: 'invisible-character' },
  { name: 'Hangul filler', path: '/\u3164.txt', rule: 'invisible-character' },
  { name: 'combining grapheme joiner', path: '/a\u034F.txt', rule: 'invisible-character' },
  { name: 'byte order mark', path: '/\uFEFFa.txt', rule: 'invisible-character' },
  { name: 'line separator', path: '/a\u2028b', rule: 'control-character' },
  { name: 'lone surrogate', path: '/\uD800.txt', rule: 'invalid-unicode' },
  // lengths
  { name: '256-byte name', path: `/${'a'.repeat(256)}`, rule: 'name-too-long' },
  { name: 'multibyte name over 255 bytes', path: `/${'€'.repeat(86)}`, rule: 'name-too-long' },
  { name: 'path over 4096 bytes', path: longPath, rule: 'path-too-long' },
  // reserved names (on Windows only), trailing dots and spaces, streams
  ...(process.platform === 'win32' ? deviceNames : []),
  { name: 'trailing dot', path: '/report.txt.', rule: 'trailing-dot-or-space' },
  { name: 'trailing space', path: '/report.txt ', rule: 'trailing-dot-or-space' },
  { name: 'folder with trailing dot', path: '/folder./a.txt', rule: 'trailing-dot-or-space' },
  { name: 'trailing ideographic space', path: '/a.txt\u3000', rule: 'trailing-dot-or-space' },
  { name: 'trailing fullwidth dot', path: '/a\uFF0E', rule: 'trailing-dot-or-space' },
  { name: 'alternate data stream', path: '/a.txt:secret', rule: 'colon' },
  { name: '::$DATA stream', path: '/a.txt::$DATA', rule: 'colon' },
  // the internal folder, with case and look-alike tricks
  { name: '.bureau', path: '/.bureau/history/config', rule: 'internal-folder' },
  { name: '.BUREAU', path: '/.BUREAU/history/config', rule: 'internal-folder' },
  { name: '.Bureau trash', path: '/.Bureau/trash', rule: 'internal-folder' },
  { name: 'fullwidth-dot .bureau', path: '/\uFF0Ebureau/history/config', rule: 'internal-folder' },
  { name: '.bureau after ..', path: '/notes/../.bureau/history/HEAD', rule: 'internal-folder' },
  // not a usable path at all
  { name: 'empty string', path: '', rule: 'empty-path' },
  { name: 'a number', path: 42, rule: 'not-a-string' },
  { name: 'null', path: null, rule: 'not-a-string' },
  // symbolic links (made in beforeAll)
  { name: 'link to an outside folder', path: '/out-dir/canary.txt', rule: 'symlink-escape' },
  { name: 'new file through an outside link', path: '/out-dir/new.txt', rule: 'symlink-escape' },
  { name: 'link to an outside file', path: '/out-file', rule: 'symlink-escape' },
  { name: 'relative link out', path: '/rel-out/canary.txt', rule: 'symlink-escape' },
  { name: 'link chain out (file)', path: '/chain1/canary.txt', rule: 'symlink-escape' },
  { name: 'link chain out (link itself)', path: '/chain1', rule: 'symlink-escape' },
  { name: 'symlinked parent of missing folders', path: '/parent-link/sub/new.txt', rule: 'symlink-escape' },
  { name: 'nested relative link climbing out', path: '/deep/deeper/up/outside.txt', rule: 'symlink-escape' },
  { name: 'dangling link pointing outside', path: '/dangling', rule: 'symlink-dangling' },
  { name: 'dangling link pointing inside', path: '/dangling-in', rule: 'symlink-dangling' },
  { name: 'link loop', path: '/loop-a', rule: 'symlink-dangling' },
  { name: 'link into .bureau', path: '/to-internal/history/config', rule: 'internal-folder' },
  { name: 'link to the root, then .bureau', path: '/self/.bureau/history/config', rule: 'internal-folder' },
  { name: 'link to a file inside .bureau', path: '/hist-file', rule: 'internal-folder' },
]

const boxes = sandboxes('bureau-hostile-')
let workspace: Workspace
let base = ''
let root = ''
let before: Record<string, string> = {}
let snapshot: () => Promise<Record<string, string>>
let historyConfig = ''

beforeAll(async () => {
  const box = await boxes.make()
  ;({ workspace, base, root } = box)
  snapshot = box.snapshotOutside
  await workspace.writeFile('/victim.txt', 'inside')
  await workspace.writeFile('/notes/keep.txt', 'keep')
  const link = (target: string, at: string) => symlink(target, path.join(root, at))
  await link(box.outside, 'out-dir')
  await link(path.join(box.outside, 'canary.txt'), 'out-file')
  await link('../outside', 'rel-out')
  await link('chain2', 'chain1')
  await link('chain3', 'chain2')
  await link(box.outside, 'chain3')
  await link(box.outside, 'parent-link')
  await mkdir(path.join(root, 'deep', 'deeper'), { recursive: true })
  await link('../../..', 'deep/deeper/up')
  await link(path.join(box.outside, 'not-yet.txt'), 'dangling')
  await link('missing-inside.txt', 'dangling-in')
  await link('loop-b', 'loop-a')
  await link('loop-a', 'loop-b')
  await link('.bureau', 'to-internal')
  await link('.', 'self')
  await link('.bureau/history/config', 'hist-file')
  historyConfig = await readFile(path.join(root, '.bureau', 'history', 'config'), 'utf8')
  before = await snapshot()
})

afterAll(async () => {
  await workspace.close()
  await boxes.cleanup()
})

function expectRefused(error: Error & { rule?: string; code?: string }, rule: PathRule) {
  expect(error, 'the call succeeded instead of being refused').toBeInstanceOf(Error)
  expect(error).toBeInstanceOf(PathRefusedError)
  expect(error).toBeInstanceOf(AppError)
  expect(error.code).toBe('FORBIDDEN')
  expect(error.rule).toBe(rule)
  expect(error.message).toContain(`(${rule})`)
  expect(error.message).not.toContain(base)
  expect(error.message).not.toContain(path.dirname(base))
}

describe('hostile path corpus', () => {
  it('has at least 50 cases', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(50)
  })

  it.each(corpus)('$name: refused for every operation', async ({ path: hostile, rule }) => {
    const agentPath = hostile as string
    const operations: Array<() => Promise<unknown>> = [
      () => workspace.resolve(agentPath),
      () => workspace.readFile(agentPath),
      () => workspace.readText(agentPath),
      () => workspace.writeFile(agentPath, 'pwned'),
      () => workspace.appendText(agentPath, 'pwned'),
      () => workspace.stat(agentPath),
      () => workspace.exists(agentPath),
      () => workspace.list(agentPath),
      () => workspace.mkdir(agentPath),
      () => workspace.delete(agentPath),
      () => workspace.move('/victim.txt', agentPath),
      () => workspace.copy('/victim.txt', agentPath),
      () => workspace.copy(agentPath, '/copied-out'),
      () => workspace.find('*', { dir: agentPath }),
      () => workspace.restoreBackup(agentPath),
      () => workspace.history.list(agentPath),
    ]
    // Every operation runs even if one fails, so the canary check below sees anything that got through.
    const outcomes: unknown[] = []
    for (const operation of operations)
      outcomes.push(
        await operation().then(
          () => 'succeeded',
          (error) => error,
        ),
      )
    for (const outcome of outcomes) expectRefused(outcome as Error, rule)
  })

  it.skipIf(process.platform === 'win32')(
    'Windows device names are ordinary files elsewhere: written, listed, read and stat-ed',
    async () => {
      const names = deviceNames.map((c) => (c.path as string).split('/').pop()!)
      for (const name of names) expect(isWindowsDeviceName(name)).toBe(true)
      for (const name of ['con.txt', 'nul.tar.gz', 'Aux.Txt', 'CONIN$']) {
        await workspace.writeFile(`/devices/${name}`, name)
        expect(await workspace.readText(`/devices/${name}`)).toBe(name)
        expect((await workspace.stat(`/devices/${name}`)).type).toBe('file')
      }
      const listed = (await workspace.list('/devices')).entries.map((e) => e.name).sort()
      expect(listed).toEqual(['Aux.Txt', 'CONIN$', 'con.txt', 'nul.tar.gz'])
      await workspace.delete('/devices')
    },
  )

  it('left everything outside the workspace, and Bureau internals, untouched', async () => {
    expect(await snapshot()).toEqual(before)
    expect(await readFile(path.join(root, '.bureau', 'history', 'config'), 'utf8')).toBe(historyConfig)
    expect(await workspace.readText('/victim.txt')).toBe('inside')
    expect(await workspace.exists('/copied-out')).toBe(false)
  })
})

describe('paths that look dangerous but are inside', () => {
  it('treats /etc/passwd as <workspace>/etc/passwd', async () => {
    const receipt = await workspace.writeFile('/etc/passwd', 'not the real one')
    expect(receipt.path).toBe('/etc/passwd')
    expect(await readFile(path.join(root, 'etc', 'passwd'), 'utf8')).toBe('not the real one')
  })

  it('normalises .. that stays inside the root', async () => {
    expect(await workspace.readText('/notes/../notes/./keep.txt')).toBe('keep')
    expect((await workspace.stat('notes//keep.txt')).path).toBe('/notes/keep.txt')
  })

  it('allows a link that stays inside the workspace', async () => {
    await symlink('notes', path.join(root, 'notes-link'))
    expect(await workspace.readText('/notes-link/keep.txt')).toBe('keep')
    expect(await workspace.resolve('/notes-link/keep.txt')).toBe(path.join(root, 'notes', 'keep.txt'))
  })

  it('keeps ordinary Unicode names (accents, CJK, emoji with joiners, ellipsis)', async () => {
    for (const name of [
      '/Café résumé.txt',
      '/報告。2025.txt',
      '/👨\u200D👩\u200D👧 family.txt',
      '/Notes… draft.txt',
      '/می\u200Cخواهم.txt',
      '/क्\u200Dष.txt',
      '/❤\uFE0F\u200D🔥.txt',
    ]) {
      await workspace.writeFile(name, 'ok')
      expect(await workspace.readText(name)).toBe('ok')
    }
  })

  it('toAgent refuses an outside host path without naming it', async () => {
    const error = await rejection(
      Promise.resolve().then(() => workspace.toAgent(path.join(base, 'outside.txt'))),
    )
    expect(error.message).not.toContain(base)
    expect(workspace.toAgent(path.join(root, 'notes', 'keep.txt'))).toBe('/notes/keep.txt')
    expect(workspace.toAgent(root)).toBe('/')
  })

  it('hides .bureau from listings', async () => {
    const names = (await workspace.list('/')).entries.map((entry) => entry.name)
    expect(names).not.toContain('.bureau')
    expect(names).toContain('victim.txt')
  })
})
