import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'

const P = '/names.xlsx'

describe('sheet names follow Excel rules before anything changes', () => {
  let h: Harness
  beforeEach(async () => {
    h = await createHarness()
    await h.call('create', { path: P, sheet: 'Data' })
  })
  afterEach(async () => h.cleanup())

  const refused: [string, string][] = [
    ['a\u0001b', 'it contains the control character U+0001'],
    ['a\u0002b', 'it contains the control character U+0002'],
    ['tab\there', 'it contains the control character U+0009'],
    ['del\u007f', 'it contains the control character U+007F'],
    ['x'.repeat(32), 'it has 32 characters'],
    ['History', 'Excel reserves "History"'],
    ['hIsToRy', 'Excel reserves "History"'],
    ['a[1]', 'it contains ['],
    ['q?', 'it contains ?'],
    ["'quoted'", 'it starts or ends with an apostrophe'],
    ['   ', 'it is empty'],
  ]

  it('add_sheet, rename_sheet and create refuse each bad name with the rule it breaks', async () => {
    for (const [name, why] of refused) {
      expect(await h.fail('add_sheet', { path: P, sheet: name })).toContain(
        `${JSON.stringify(name)} is not a valid sheet name: ${why}`,
      )
      expect(await h.fail('rename_sheet', { path: P, sheet: 'Data', new_name: name })).toContain(why)
      expect(await h.fail('create', { path: '/other.xlsx', sheet: name })).toContain(why)
    }
    expect((await h.call<{ sheets: string[] }>('get_sheet_names', { path: P })).sheets).toEqual(['Data'])
  })

  it('names are unique regardless of letter case; renaming a sheet to another case of itself works', async () => {
    await h.call('add_sheet', { path: P, sheet: 'Ab' })
    expect(await h.fail('add_sheet', { path: P, sheet: 'aB' })).toContain('Sheet "Ab" already exists')
    expect(await h.fail('rename_sheet', { path: P, sheet: 'Data', new_name: 'AB' })).toContain(
      'Sheet "Ab" already exists',
    )
    await h.call('rename_sheet', { path: P, sheet: 'Ab', new_name: 'AB' })
    expect((await h.call<{ sheets: string[] }>('get_sheet_names', { path: P })).sheets).toEqual([
      'Data',
      'AB',
    ])
  })

  it('after refused names the session still saves every edit (the old behaviour lost them at save)', async () => {
    await h.call('set_cell_value', { path: P, sheet: 'Data', cell: 'A1', value: 'kept' })
    await h.fail('add_sheet', { path: P, sheet: 'a\u0001b' })
    await h.fail('add_sheet', { path: P, sheet: 'a\u0002b' })
    await h.call('add_sheet', { path: P, sheet: 'ab' })
    await h.call('set_cell_value', { path: P, sheet: 'ab', cell: 'B2', value: 7 })
    await h.call('save', { path: P })
    await h.newSession()
    expect((await h.call<{ sheets: string[] }>('get_sheet_names', { path: P })).sheets).toEqual([
      'Data',
      'ab',
    ])
    const a = await h.call<{ values: unknown[][] }>('get_range', { path: P, sheet: 'Data', range: 'A1' })
    const b = await h.call<{ values: unknown[][] }>('get_range', { path: P, sheet: 'ab', range: 'B2' })
    expect([a.values, b.values]).toEqual([[['kept']], [['7']]])
  })
})
