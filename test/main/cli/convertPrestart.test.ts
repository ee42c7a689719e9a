import { Command } from 'commander'
import { afterEach, describe, expect, it } from 'vitest'
import { registerConvertCommand } from '../../../src/main/cli/commands/convert'
import { convertFiles, prestartConvert, WITH_VALUE } from '../../../src/main/cli/convert/prestart'
import { convertLifetime, setConvertLifetime } from '../../../src/main/convert/lifetime'
import { stopIdleWorkers } from '../../../src/main/convert/worker/runInWorker'

// What `bureau convert` starts workers for before its options are parsed: the file names only.
describe('the files of a convert command line', () => {
  it('leaves out options and the values of the options that take one', () => {
    expect(
      convertFiles([
        '--vision',
        'off',
        'a.pdf',
        '--max-chars',
        '500',
        '--json',
        '--data-dir',
        'd.zip',
        'b.docx',
      ]),
    ).toEqual(['a.pdf', 'b.docx'])
    expect(convertFiles(['--keep-data-uris', '--no-cache', 'a.pdf'])).toEqual(['a.pdf'])
    expect(convertFiles(['--vision=off', 'a.pdf'])).toEqual(['a.pdf'])
  })

  it('takes everything after -- as files', () => {
    expect(convertFiles(['a.pdf', '--', '-odd.docx', '--json'])).toEqual(['a.pdf', '-odd.docx', '--json'])
  })

  it('knows every option of the convert command that takes a value', () => {
    const program = new Command()
    registerConvertCommand(program)
    const convert = program.commands.find((command) => command.name() === 'convert')
    const withValue = (convert?.options ?? [])
      .filter((option) => option.required || option.optional)
      .map((option) => option.long)
    expect(withValue.length).toBeGreaterThan(0)
    expect([...WITH_VALUE].sort()).toEqual(withValue.sort())
  })
})

describe('the lifetime a convert command line sets', () => {
  afterEach(async () => {
    setConvertLifetime('session')
    await stopIdleWorkers()
  })

  it('marks the process as one command before its workers start', () => {
    // Files of this project share a worker's modules: another may have run a convert command before.
    setConvertLifetime('session')
    prestartConvert(['convert', '--help'])
    prestartConvert(['serve', 'a.pdf'])
    expect(convertLifetime()).toBe('session')
    prestartConvert(['convert', '--json', 'a.pdf'])
    expect(convertLifetime()).toBe('command')
  })
})
