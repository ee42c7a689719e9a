import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCliInProcess } from '../../support/inProcessCli'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-memory-cli-')
afterAll(() => dirs.cleanup())

describe('bureau memory', () => {
  it('add, list (text and --json, --workspace), rm, pause and resume, export and import', async () => {
    const dataDir = await dirs.make()
    const d = ['--data-dir', dataDir]
    const added = await runCliInProcess(['memory', 'add', 'Invoices go to /finance/invoices', ...d, '--json'])
    expect(added.code).toBe(0)
    const stored = JSON.parse(added.stdout) as { id: string; source: unknown }
    expect(stored.source).toEqual({ kind: 'cli' })
    const ws = await dirs.make()
    expect(
      (await runCliInProcess(['memory', 'add', 'Reports use the blue template', '--workspace', ws, ...d]))
        .stdout,
    ).toMatch(/^Remembered m[0-9a-f]{8} \[workspace .+\]: Reports use the blue template\n$/)

    const listed = await runCliInProcess(['memory', 'list', ...d])
    expect(listed.stdout).toContain(`${stored.id}  [everywhere]  Invoices go to /finance/invoices`)
    const elsewhere = JSON.parse(
      (await runCliInProcess(['memory', 'list', '--workspace', '/tmp/other', '--json', ...d])).stdout,
    )
    expect(elsewhere.memories.map((m: { text: string }) => m.text)).toEqual([
      'Invoices go to /finance/invoices',
    ])

    const refused = await runCliInProcess(['memory', 'add', 'AWS key AKIAIOSFODNN7EXAMPLE', ...d])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/Not stored: this looks like an AWS access key/)

    const file = join(await dirs.make(), 'memories.json')
    expect((await runCliInProcess(['memory', 'export', file, ...d])).code).toBe(0)
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ format: 'bureau-memories', version: 1 })

    expect((await runCliInProcess(['memory', 'rm', stored.id, ...d])).stdout).toBe(
      `Forgot ${stored.id}: Invoices go to /finance/invoices\n`,
    )
    const missing = await runCliInProcess(['memory', 'rm', stored.id, ...d])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toMatch(/No memory with id/)

    expect((await runCliInProcess(['memory', 'import', file, '--json', ...d])).stdout.trim()).toBe(
      JSON.stringify({ added: 1, skipped: 1, refused: 0 }),
    )
    await writeFile(file, '{not json')
    const bad = await runCliInProcess(['memory', 'import', file, ...d])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toMatch(/is not JSON: nothing was imported/)

    expect((await runCliInProcess(['memory', 'pause', ...d])).stdout).toMatch(/Memory paused/)
    expect((await runCliInProcess(['memory', 'list', ...d])).stdout).toMatch(/^Memory is paused/)
    expect(JSON.parse((await runCliInProcess(['memory', 'list', '--json', ...d])).stdout).paused).toBe(true)
    expect((await runCliInProcess(['memory', 'resume', ...d])).stdout).toBe('Memory resumed.\n')
  })

  it('every subcommand has --help', async () => {
    for (const sub of ['list', 'add', 'rm', 'pause', 'resume', 'export', 'import']) {
      const help = await runCliInProcess(['memory', sub, '--help'])
      expect(help.code, sub).toBe(0)
      expect(help.stdout, sub).toMatch(/--data-dir/)
    }
    expect((await runCliInProcess(['memory', '--help'])).stdout).toMatch(/list.*\n(.*\n)*.*import/)
  })
})
