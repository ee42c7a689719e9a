import { describe, expect, it } from 'vitest'
import { createToolRegistry, resolveMethod } from '../../../src/main/tools'
import { files, notes, sheet } from './sampleToolsets'

const registry = createToolRegistry([sheet, files, notes])

function resolved(name: string): string {
  const result = resolveMethod(registry, name)
  if (!result.ok) throw new Error(result.error)
  return result.target.name
}

function refused(name: string): string {
  const result = resolveMethod(registry, name)
  if (result.ok) throw new Error(`"${name}" unexpectedly resolved to ${result.target.name}`)
  return result.error
}

describe('method name resolution', () => {
  it.each([
    'sheet_set_cell_value',
    'sheet.setCellValue',
    'sheet.set_cell_value',
    'sheet/set-cell-value',
    'sheet set_cell_value',
    'sheet::SetCellValue',
    'sheetSetCellValue',
    'SheetSetCellValue',
    'sheet-set-cell-value',
    'set_cell_value',
    'setCellValue',
    'set-cell-value',
    'SetCellValue',
    'SET_CELL_VALUE',
    'functions.sheet_set_cell_value',
    'sheet_set_cell_value()',
    '`setCellValue`',
    '  set_cell_value  ',
  ])('%s -> sheet_set_cell_value', (name) => {
    expect(resolved(name)).toBe('sheet_set_cell_value')
  })

  it('resolves a data_range-style snake method key and toolset prefixes', () => {
    expect(resolved('files.write_text')).toBe('files_write_text')
    expect(resolved('writeText')).toBe('files_write_text')
    expect(resolved('notes_count')).toBe('notes_count')
  })

  it('refuses an ambiguous bare name and lists the full names', () => {
    const error = refused('list')
    expect(error).toContain('several toolsets')
    expect(error).toContain('sheet_list')
    expect(error).toContain('files_list')
    expect(resolved('files_list')).toBe('files_list')
    expect(resolved('sheet.list')).toBe('sheet_list')
  })

  it('suggests the closest methods of a known toolset, spelled as API-mode function names', () => {
    const error = refused('sheet_set_cel_value')
    expect(error).toContain('Unknown method')
    expect(error).toContain('Did you mean `sheet_set_cell_value`')
    expect(error).toContain('Methods: sheet_set_cell_value, sheet_get_range')
    expect(refused('sheet.frobnicate')).toContain('Methods: sheet_set_cell_value')
  })

  it('suggests the closest names overall for a typo without a toolset', () => {
    expect(refused('setCellValu')).toContain('sheet_set_cell_value')
    expect(refused('get_rnge')).toContain('sheet_get_range')
  })

  it('lists the toolsets when nothing is close', () => {
    expect(refused('launch_rocket')).toContain('Toolsets: sheet, files, notes')
  })

  it('refuses an empty name', () => {
    expect(refused('')).toContain('No method name')
  })

  it('follows registry changes', () => {
    const live = createToolRegistry([files])
    expect(resolveMethod(live, 'count').ok).toBe(false)
    live.add(notes)
    expect(resolveMethod(live, 'count').ok).toBe(true)
    live.remove('notes')
    expect(resolveMethod(live, 'count').ok).toBe(false)
  })
})
