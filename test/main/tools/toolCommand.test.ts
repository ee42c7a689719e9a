import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, runCli, spawnCli } from '../../support/builtCli'
import { runCliInProcess } from '../../support/inProcessCli'
import { tempDirs } from '../../support/tempDir'

// End to end: `bureau tool` as a user runs it; in-process through runCli's seam, except where a real process
// matters (the built command's one-shot call and Ctrl-C).
const dirs = tempDirs('bureau-tool-cli-')
let dataDir = ''
let workspace = ''
let marker = ''

const statefulPlugin = (markerFile: string) => `
import { writeFileSync } from 'node:fs'
export default ({ defineToolset, method, z, sessionState }) => {
  const tally = sessionState('tally', () => ({ n: 0 }), (state) => writeFileSync(${JSON.stringify(markerFile)}, String(state.n)))
  return defineToolset({
    name: 'tally',
    summary: 'Counts calls in one session; saves the count when the session ends.',
    methods: {
      bump: method({
        description: 'Adds one.',
        input: z.object({ by: z.number().int().default(1) }),
        output: z.object({ n: z.number() }),
        risk: 'read',
        run: async ({ by }, ctx) => { const s = tally.get(ctx); s.n += by; return { n: s.n } },
      }),
      note: method({
        description: 'Writes a note into the workspace.',
        input: z.object({ path: z.string(), text: z.string() }),
        output: z.object({ path: z.string() }),
        risk: 'write',
        run: async ({ path, text }, ctx) => { await ctx.workspace.writeFile(path, text); return { path } },
      }),
    },
  })
}
`

beforeAll(async () => {
  assertBuilt()
  const base = await dirs.make()
  dataDir = join(base, 'data')
  workspace = join(base, 'workspace')
  marker = join(base, 'disposed.txt')
  await mkdir(join(dataDir, 'tools', 'tally'), { recursive: true })
  await writeFile(join(dataDir, 'tools', 'tally', 'index.mjs'), statefulPlugin(marker))
  await mkdir(join(dataDir, 'tools', 'broken'), { recursive: true })
  await writeFile(join(dataDir, 'tools', 'broken', 'index.mjs'), 'export default "nope"')
})
afterAll(() => dirs.cleanup())

function tool(args: string[], input?: string) {
  return runCliInProcess(['tool', '--data-dir', dataDir, '--workspace', workspace, ...args], { input })
}

describe('bureau tool', () => {
  it('--help shows its own options, then lists the toolsets (shipped and user plugins), exit 0', async () => {
    const result = await tool(['--help'])
    expect(result.code, result.stderr).toBe(0)
    for (const flag of ['--workspace <dir>', '--data-dir <dir>', '--browser-cdp <url>']) {
      expect(result.stdout).toContain(flag)
    }
    expect(result.stdout).toMatch(/text\s+Small text utilities/)
    expect(result.stdout).toMatch(/tally\s+Counts calls/)
  })

  it('<toolset> --help lists its methods; <toolset> <method> --help its parameters', async () => {
    const toolset = await tool(['text', '--help'])
    expect(toolset.code, toolset.stderr).toBe(0)
    expect(toolset.stdout).toMatch(/word_count <text>.*\n\s+Counts words/)
    const method = await tool(['text', 'replace', '--help'])
    expect(method.code, method.stderr).toBe(0)
    expect(method.stdout).toContain(
      'Usage: text replace <text> <find> <replacement> [--regex] [--ignore-case] [--all]',
    )
  })

  it('runs one command and prints the result as JSON, exit 0 (the built command)', async () => {
    const result = await runCli([
      'tool',
      '--data-dir',
      dataDir,
      '--workspace',
      workspace,
      'text',
      'replace',
      'a-b-c',
      '-',
      '+',
      '--all=false',
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ text: 'a+b-c', replacements: 1 })
  })

  it('a usage error exits 2 with the usage on stderr and nothing on stdout', async () => {
    const result = await tool(['text', 'slugify', '--bogus'])
    expect(result.code, result.stderr).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('Unknown option --bogus for text slugify')
    expect(result.stderr).toContain('Usage: text slugify <text>')
    expect((await tool(['nosuch', 'thing'])).code).toBe(2)
    expect((await tool(['text', 'word_count'])).code).toBe(2)
  })

  it('a tool error exits 1 with the message on stderr', async () => {
    const result = await tool(['text', 'replace', 'abc', '(', 'x', '--regex'])
    expect(result.code, result.stderr).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('Invalid regular expression "("')
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })

  it('a broken user plugin is reported on stderr and skipped; the rest works', async () => {
    const result = await tool(['tally', 'bump'])
    expect(result.code, result.stderr).toBe(0)
    // Once, as a notice naming the plugin folder and the reason.
    expect(result.stderr).toContain('warning: Plugin tools/broken was skipped')
    expect(result.stderr).toContain('the default export must be a function')
    expect(result.stderr.match(/broken/g)).toHaveLength(1)
  })

  it('stdin session: one JSON line per command, state persists between lines, disposed at the end', async () => {
    const input = [
      'tally bump',
      '# a comment',
      '',
      'tally bump --by 5',
      'tally nope',
      'text slugify "Hello World"',
      'tally bump',
    ].join('\n')
    const result = await tool([], input)
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines).toEqual([
      { ok: true, value: { n: 1 } },
      { ok: true, value: { n: 6 } },
      { ok: false, error: expect.stringContaining('Unknown method "nope" in toolset tally') },
      { ok: true, value: { slug: 'hello-world' } },
      { ok: true, value: { n: 7 } },
    ])
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toContain('1 of 5 commands failed')
    expect(await readFile(marker, 'utf8')).toBe('7')
  })

  it('`-` also reads stdin; all lines succeeding exits 0', async () => {
    const result = await tool(['-'], 'tally bump --by 2\n')
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe('{"ok":true,"value":{"n":2}}\n')
    expect(await readFile(marker, 'utf8')).toBe('2')
  })

  it('methods reach the workspace given with --workspace', async () => {
    const result = await tool(['tally', 'note', '/notes/a.txt', 'hello'])
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({ path: '/notes/a.txt' })
    expect(await readFile(join(workspace, 'notes', 'a.txt'), 'utf8')).toBe('hello')
  })

  it('a command that never touches files does not create the workspace', async () => {
    const untouched = join(await dirs.make(), 'never')
    const result = await runCliInProcess([
      'tool',
      '--data-dir',
      dataDir,
      '--workspace',
      untouched,
      'text',
      'word_count',
      'x',
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(existsSync(untouched)).toBe(false)
  })

  it('built-in files toolset: write, read, list; a path leaving the workspace exits 1 with no content', async () => {
    const ws = join(await dirs.make(), 'ws')
    const run = (args: string[]) =>
      runCliInProcess(['tool', '--data-dir', dataDir, '--workspace', ws, ...args])
    const written = await run(['files', 'write_text', '/notes/a.txt', 'hello'])
    expect(written.code, written.stderr).toBe(0)
    expect(JSON.parse(written.stdout)).toMatchObject({ path: '/notes/a.txt', created: true })
    const read = await run(['files', 'read', '/notes/a.txt'])
    expect(read.code, read.stderr).toBe(0)
    expect(JSON.parse(read.stdout)).toMatchObject({ path: '/notes/a.txt', content: 'hello' })
    const list = await run(['files', 'list', '/'])
    expect(JSON.parse(list.stdout).entries.map((e: { path: string }) => e.path)).toEqual(['/notes'])
    await writeFile(join(ws, '..', 'outside.txt'), 'secret outside')
    const outside = await run(['files', 'read', '/../outside.txt'])
    expect(outside.code, outside.stderr).toBe(1)
    expect(outside.stdout).toBe('')
    expect(outside.stderr).toContain('leave the workspace')
    expect(outside.stderr).not.toContain('secret outside')
    expect(outside.stderr).not.toContain(ws)
  })

  it('Ctrl-C during a stdin session stops reading and still disposes the session', async () => {
    const { child, output } = spawnCli(['tool', '--data-dir', dataDir, '--workspace', workspace])
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
    child.stdin.write('tally bump --by 40\n')
    const deadline = Date.now() + 30_000
    while (!output.stdout.includes('\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(JSON.parse(output.stdout)).toEqual({ ok: true, value: { n: 40 } })
    child.kill('SIGINT')
    expect(await exited).toBe(1)
    expect(output.stderr).toContain('Interrupted')
    expect(await readFile(marker, 'utf8')).toBe('40')
  })

  it('without --workspace, uses the workspace folder and the extra tools folder from the settings', async () => {
    const base = await dirs.make()
    const settingsData = join(base, 'data')
    const folder = join(base, 'from-settings')
    const extra = join(base, 'extra-tools', 'tally')
    await mkdir(extra, { recursive: true })
    await writeFile(join(extra, 'index.mjs'), statefulPlugin(join(base, 'marker.txt')))
    const settingsToSet: Array<[string, string]> = [
      ['workspace.folder', folder],
      ['tools.extraFolder', join(base, 'extra-tools')],
    ]
    for (const [key, value] of settingsToSet) {
      const set = await runCliInProcess(['settings', 'set', key, value, '--data-dir', settingsData])
      expect(set.code, set.stderr).toBe(0)
    }
    const write = await runCliInProcess([
      'tool',
      '--data-dir',
      settingsData,
      'tally',
      'note',
      '/hello.txt',
      'from settings',
    ])
    expect(write.code, write.stderr).toBe(0)
    expect(await readFile(join(folder, 'hello.txt'), 'utf8')).toBe('from settings')
  })
})
