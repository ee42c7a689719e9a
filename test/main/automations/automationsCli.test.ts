import { afterAll, describe, expect, it } from 'vitest'
import { runCliInProcess } from '../../support/inProcessCli'
import { tempDirs } from '../../support/tempDir'

const dirs = tempDirs('bureau-automations-cli-')
afterAll(() => dirs.cleanup())

describe('bureau automations add --result-mail', () => {
  it('stores an e-mail output; a bad address or both result options are refused and nothing is stored', async () => {
    const d = ['--data-dir', await dirs.make()]
    const add = (...words: string[]) =>
      runCliInProcess([
        'automations',
        'add',
        ...words,
        '--prompt',
        'Sum up the week.',
        '--every',
        'friday at 16:00',
        ...d,
      ])
    const added = await add(
      'Weekly sales',
      '--result-mail',
      'anna@example.com, bo@example.com',
      '--approve',
      'all',
      '--json',
    )
    expect(added.stderr).toBe('')
    expect(added.code).toBe(0)
    expect(JSON.parse(added.stdout)).toMatchObject({
      name: 'Weekly sales',
      approve: 'all',
      output: { kind: 'email', to: ['anna@example.com', 'bo@example.com'] },
    })
    const both = await add('Both', '--result-mail', 'anna@example.com', '--result-file', '/r.md')
    expect(both.code).not.toBe(0)
    expect(both.stderr).toContain('Give one of --result-file and --result-mail.')
    const bad = await add('Bad', '--result-mail', 'not-an-address')
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toMatch(/e-?mail|address|output/i)
    const listed = JSON.parse((await runCliInProcess(['automations', 'list', '--json', ...d])).stdout)
    expect(JSON.stringify(listed)).not.toMatch(/"Both"|"Bad"/)
    expect(JSON.stringify(listed)).toContain('Weekly sales')
    const help = await runCliInProcess(['automations', 'add', '--help'])
    expect(help.stdout).toContain('--result-mail <addresses>')
  })
})
