import { describe, expect, it } from 'vitest'
import {
  createToolSession,
  runTerminalArgv,
  runTerminalCommand,
  type ToolResult,
} from '../../../src/main/tools'
import { files, notes, sheet } from './sampleToolsets'

const session = createToolSession({ toolsets: [sheet, files, notes] })

async function args(command: string): Promise<Record<string, unknown> | undefined> {
  const result = await runTerminalCommand(session, command)
  if (!result.ok) throw new Error(result.error)
  return result.call?.args
}

async function fails(command: string): Promise<Extract<ToolResult, { ok: false }>> {
  const result = await runTerminalCommand(session, command)
  if (result.ok) throw new Error(`"${command}" unexpectedly succeeded`)
  return result
}

async function help(command: string): Promise<string> {
  const result = await runTerminalCommand(session, command)
  if (!result.ok || !result.help) throw new Error(`"${command}" gave no help: ${JSON.stringify(result)}`)
  return String(result.value)
}

describe('terminal parsing', () => {
  it('positional arguments in declared field order', async () => {
    expect(await args('sheet set_cell_value /b.xlsx Sales A1 5')).toEqual({
      path: '/b.xlsx',
      sheet: 'Sales',
      cell: 'A1',
      value: '5',
    })
  })

  it('--name value and --name=value, in any order, mixed with positionals', async () => {
    expect(await args('sheet set_cell_value --sheet Sales /b.xlsx --value=5 --cell A1')).toEqual({
      path: '/b.xlsx',
      sheet: 'Sales',
      cell: 'A1',
      value: '5',
    })
  })

  it('shell quoting: double and single quotes, escapes, empty strings', async () => {
    expect(await args(`files write_text "/my notes/a b.txt" 'it''s "quoted"'`)).toEqual({
      path: '/my notes/a b.txt',
      text: 'its "quoted"',
    })
    expect(await args('files write_text /a.txt "say \\"hi\\""')).toEqual({ path: '/a.txt', text: 'say "hi"' })
    expect(await args('files write_text /a\\ b.txt ""')).toEqual({ path: '/a b.txt', text: '' })
  })

  it('--flag, --no-flag, --flag=false and --flag yes for booleans; defaults fill the rest', async () => {
    expect(await args('files list /docs --recursive')).toEqual({ dir: '/docs', recursive: true })
    expect(await args('files list --no-recursive')).toEqual({ dir: '/', recursive: false })
    expect(await args('files list --recursive=false')).toEqual({ dir: '/', recursive: false })
    expect(await args('files list --recursive yes /x')).toEqual({ dir: '/x', recursive: true })
    expect(await args('sheet get_range /b Sales A1:B2 --detailed --limit 5')).toEqual({
      path: '/b',
      sheet: 'Sales',
      range: 'A1:B2',
      detailed: true,
      limit: 5,
    })
  })

  it('option names in kebab, snake or camel case', async () => {
    const expected = { path: '/p', sheet: 'S', type: 'bar', data_range: 'A1:B3' }
    expect(await args('sheet add_chart /p S bar --data-range A1:B3')).toEqual(expected)
    expect(await args('sheet add_chart /p S bar --data_range A1:B3')).toEqual(expected)
    expect(await args('sheet add_chart /p S bar --dataRange=A1:B3')).toEqual(expected)
  })

  it('arrays as comma lists, JSON or repeated options; objects as JSON', async () => {
    expect(await args('sheet tag red,green')).toEqual({ tags: ['red', 'green'] })
    expect(await args(`sheet tag '["a, b", "c"]' --weights 1,2`)).toEqual({
      tags: ['a, b', 'c'],
      weights: [1, 2],
    })
    expect(await args('sheet tag --tags a --tags b --tags c')).toEqual({ tags: ['a', 'b', 'c'] })
    expect(await args(`sheet append_rows /b S '[["x", 1], ["y", 2]]'`)).toEqual({
      path: '/b',
      sheet: 'S',
      rows: [
        ['x', 1],
        ['y', 2],
      ],
    })
    expect(await args(`sheet add_chart /p S pie A1:B2 --anchor '{"cell":"E2"}'`)).toMatchObject({
      anchor: { cell: 'E2', width: 480 },
    })
  })

  it('a lone JSON object is taken as the arguments', async () => {
    expect(await args(`files write_text '{"path": "/a.txt", "text": "hi"}'`)).toEqual({
      path: '/a.txt',
      text: 'hi',
    })
  })

  it('a JSON object written unquoted after the method is taken whole as the named arguments', async () => {
    expect(await args('files write_text {"path": "/a.txt", "text": "# Hi there"}')).toEqual({
      path: '/a.txt',
      text: '# Hi there',
    })
    expect(await args('files write_text /a.txt {"k": "v w"}')).toEqual({
      path: '/a.txt',
      text: '{"k": "v w"}',
    })
    expect(await args('files write_text /a.txt "a {b}"')).toEqual({ path: '/a.txt', text: 'a {b}' })
  })

  it('-- ends the options, so values may start with --', async () => {
    expect(await args('files write_text /a.txt -- --not-an-option')).toEqual({
      path: '/a.txt',
      text: '--not-an-option',
    })
  })

  it('negative numbers are values, not options', async () => {
    expect(await args('sheet set_cell_value /b S A1 -5')).toMatchObject({ value: '-5' })
  })

  it('accepts the full method name, a prefix of `bureau tool`, `cli` or `$`', async () => {
    expect(await args('sheet_set_cell_value /b S A1 1')).toMatchObject({ cell: 'A1' })
    expect(await args('sheet.setCellValue /b S A1 1')).toMatchObject({ cell: 'A1' })
    expect(await args('$ bureau tool files list /x')).toEqual({ dir: '/x', recursive: false })
    expect(await args('cli files list /x')).toEqual({ dir: '/x', recursive: false })
    expect(await args('Files List /x')).toEqual({ dir: '/x', recursive: false })
  })

  it('runs already-split words (the bureau tool path)', async () => {
    const result = await runTerminalArgv(session, ['files', 'write_text', '/a b.txt', 'hello world'])
    expect(result).toMatchObject({ ok: true, value: { path: '/a b.txt', bytes: 11 } })
  })
})

describe('terminal errors teach the usage', () => {
  it('unclosed quote', async () => {
    const failure = await fails('files write_text /a.txt "unclosed')
    expect(failure.stage).toBe('usage')
    expect(failure.error).toContain('Close every quote')
  })

  it('unknown toolset: suggestion and the list', async () => {
    const failure = await fails('fils list')
    expect(failure.stage).toBe('resolve')
    expect(failure.error).toContain('Did you mean `files`')
    expect(failure.error).toContain('Toolsets: sheet, files, notes')
  })

  it('unknown method: suggestion and the methods', async () => {
    const failure = await fails('files wirte_text /a x')
    expect(failure.error).toContain('Did you mean `write_text`')
    expect(failure.error).toContain('Methods: list, write_text')
    expect(failure.error).toContain('Run `files --help`')
  })

  it('unknown option: closest option, usage line and an example', async () => {
    const failure = await fails('sheet get_range /b S A1 --detaild')
    expect(failure.stage).toBe('usage')
    expect(failure.error).toContain('Unknown option --detaild for sheet get_range. Did you mean --detailed?')
    expect(failure.error).toContain(
      'Usage: sheet get_range <path> <sheet> <range> [--detailed] [--limit <integer>]',
    )
    expect(failure.error).toContain('Example: sheet get_range')
  })

  it('too many positional arguments tells to quote', async () => {
    const failure = await fails('files write_text /a.txt hello world again')
    expect(failure.error).toContain('Too many arguments')
    expect(failure.error).toContain('Quote values that contain spaces')
  })

  it('missing option value', async () => {
    const failure = await fails('sheet get_range /b S A1 --limit')
    expect(failure.error).toContain('Missing value for --limit')
  })

  it('a repeated non-array option', async () => {
    expect((await fails('files list --dir /a --dir /b')).error).toContain('--dir was given twice')
  })

  it('a missing required field is an arguments error with the CLI usage line', async () => {
    const failure = await fails('files write_text /a.txt')
    expect(failure.stage).toBe('arguments')
    expect(failure.error).toContain('text: missing, expected string')
    expect(failure.error).toContain('Usage: files write_text <path> <text>')
    expect(failure.error).toContain('Run `files write_text --help`')
  })
})

describe('terminal help at every level', () => {
  it.each(['', 'help', '-h', '--help', '?'])(
    'top level: %j lists the toolsets and how to call',
    async (command) => {
      const text = await help(command)
      expect(text).toContain('Usage: <toolset> <method>')
      expect(text).toMatch(/sheet\s+A fake spreadsheet toolset for tests\./)
      expect(text).toMatch(/files\s+Fake files\./)
      expect(text).toContain('Example: sheet set_cell_value /book.xlsx Sales A1 5')
    },
  )

  it.each(['files', 'files --help', 'files -h', 'files help', 'files ?', 'help files'])(
    'toolset: %j lists its methods',
    async (command) => {
      const text = await help(command)
      expect(text).toContain('files: Fake files.')
      // Each method with its usage line, then what it does.
      expect(text).toMatch(/ {2}list \[--dir <string>\] \[--recursive\]\n {6}Lists a folder\./)
      expect(text).toMatch(/ {2}write_text <path> <text>\n {6}Writes a text file\./)
    },
  )

  it.each([
    'sheet get_range --help',
    'sheet get_range -h',
    'sheet get_range help',
    'help sheet get_range',
    'sheet_get_range --help',
    'help sheet_get_range',
  ])('method: %j shows parameters, defaults, return shape and an example', async (command) => {
    const text = await help(command)
    expect(text).toContain('sheet get_range: Reads a range. Paged.')
    expect(text).toContain('Usage: sheet get_range <path> <sheet> <range> [--detailed] [--limit <integer>]')
    expect(text).toContain('<range> (string, required) A1 range like A1:C10.')
    expect(text).toContain(
      '--detailed (boolean, default false, --no-detailed to turn off) Return the sparse receipt shape.',
    )
    expect(text).toContain('--limit (integer, default 100)')
    expect(text).toContain('Returns: {range: string, detailed: boolean, limit: number}')
    expect(text).toContain('Example: sheet get_range /notes/example.txt example example')
  })

  it('a declared example is used in method help', async () => {
    expect(await help('sheet set_cell_value --help')).toContain(
      'Example: sheet set_cell_value /book.xlsx Sales A1 5',
    )
  })

  it('help for an unknown method names the alternatives', async () => {
    const failure = await fails('help files lst')
    expect(failure.error).toContain('Did you mean `list`')
  })
})
