import { beforeAll, describe, expect, it } from 'vitest'
import {
  createPluginLoader,
  createToolRegistry,
  createToolSession,
  invoke,
  runTerminalCommand,
  shippedToolsDir,
  type ToolSession,
} from '../../../src/main/tools'

let session: ToolSession

beforeAll(async () => {
  const registry = createToolRegistry()
  const dir = shippedToolsDir()
  if (!dir) throw new Error('the shipped tools/ folder was not found')
  const reports = await createPluginLoader({ registry, dirs: [dir] }).load()
  expect(reports.find((r) => r.plugin.endsWith('text'))).toMatchObject({
    status: 'loaded',
    toolsets: ['text'],
  })
  session = createToolSession({ toolsets: registry })
})

async function value(name: string, args: unknown): Promise<unknown> {
  const result = await invoke(session, name, args)
  if (!result.ok) throw new Error(result.error)
  return result.value
}

describe('tools/text example plugin', () => {
  it('word_count counts words, sentences, lines and characters', async () => {
    expect(await value('text_word_count', { text: 'Hello world. How are you?\nFine!' })).toEqual({
      words: 6,
      sentences: 3,
      lines: 2,
      characters: 31,
      charactersNoSpaces: 26,
    })
    expect(await value('text_word_count', { text: '' })).toEqual({
      words: 0,
      sentences: 0,
      lines: 0,
      characters: 0,
      charactersNoSpaces: 0,
    })
    expect(await value('text_word_count', { text: "l'été — 3,5 km; e-mail" })).toMatchObject({ words: 5 })
    expect(await value('text_word_count', { text: '👋🏽 hi' })).toMatchObject({ words: 1, characters: 5 })
  })

  it('replace: plain text is literal, counts replacements, respects all and ignoreCase', async () => {
    expect(await value('text_replace', { text: 'a.b.c', find: '.', replacement: '$&-' })).toEqual({
      text: 'a$&-b$&-c',
      replacements: 2,
    })
    expect(
      await value('text_replace', { text: 'Cat cat CAT', find: 'cat', replacement: 'dog', ignoreCase: true }),
    ).toEqual({
      text: 'dog dog dog',
      replacements: 3,
    })
    expect(await value('text_replace', { text: 'x x x', find: 'x', replacement: 'y', all: false })).toEqual({
      text: 'y x x',
      replacements: 1,
    })
    expect(await value('text_replace', { text: 'none here', find: 'zzz', replacement: 'y' })).toEqual({
      text: 'none here',
      replacements: 0,
    })
  })

  it('replace with regex: groups, named groups and $&', async () => {
    expect(
      await value('text_replace', {
        text: 'Call 555-1234 or 555-9876',
        find: '(\\d{3})-(\\d{4})',
        replacement: '$2/$1',
        regex: true,
      }),
    ).toEqual({
      text: 'Call 1234/555 or 9876/555',
      replacements: 2,
    })
    expect(
      await value('text_replace', {
        text: '2024-03-01',
        find: '(?<y>\\d+)-(?<m>\\d+)-(?<d>\\d+)',
        replacement: '$<d>.$<m>.$<y>',
        regex: true,
      }),
    ).toEqual({
      text: '01.03.2024',
      replacements: 1,
    })
  })

  it('an invalid regex is a clear error, not a crash', async () => {
    const result = await invoke(session, 'text_replace', {
      text: 'abc',
      find: '(unclosed',
      replacement: '',
      regex: true,
    })
    expect(result).toMatchObject({ ok: false, stage: 'run', code: 'VALIDATION_FAILED' })
    if (!result.ok) expect(result.error).toContain('Invalid regular expression "(unclosed"')
  })

  it('a catastrophic regex is stopped with a clear error while the event loop keeps running', async () => {
    let ticks = 0
    const ticker = setInterval(() => ticks++, 20)
    try {
      const result = await invoke(session, 'text_replace', {
        text: `${'a'.repeat(40)}!`,
        find: '(a+)+$',
        replacement: 'x',
        regex: true,
      })
      expect(result).toMatchObject({ ok: false, stage: 'run', code: 'TIMEOUT' })
      if (!result.ok)
        expect(result.error).toMatch(/took longer than 5 s and was stopped; it probably backtracks/)
      // The match ran in a worker: timers on this thread fired while it was stuck.
      expect(ticks).toBeGreaterThan(10)
    } finally {
      clearInterval(ticker)
    }
  })

  it('slugify: accents, ß, punctuation, separator, case and max length at a word boundary', async () => {
    expect(await value('text_slugify', { text: 'Ça va? Größe 2!' })).toEqual({ slug: 'ca-va-grosse-2' })
    expect(await value('text_slugify', { text: 'Quarterly Report: Q3 2024 (final)' })).toEqual({
      slug: 'quarterly-report-q3-2024-final',
    })
    expect(await value('text_slugify', { text: 'Hello World', separator: '_', lowercase: false })).toEqual({
      slug: 'Hello_World',
    })
    expect(await value('text_slugify', { text: 'one two three four', maxLength: 10 })).toEqual({
      slug: 'one-two',
    })
    expect(await value('text_slugify', { text: 'one two three', maxLength: 7 })).toEqual({ slug: 'one-two' })
    expect(await value('text_slugify', { text: '!!!' })).toEqual({ slug: '' })
  })

  it('works from the terminal with tolerant arguments', async () => {
    expect(
      await runTerminalCommand(session, 'text slugify "Hello Big World" --max-length 9 --no-lowercase'),
    ).toMatchObject({
      ok: true,
      value: { slug: 'Hello-Big' },
    })
    expect(await runTerminalCommand(session, "text replace 'a-b' - + --regex=no")).toMatchObject({
      ok: true,
      value: { text: 'a+b' },
    })
  })
})
