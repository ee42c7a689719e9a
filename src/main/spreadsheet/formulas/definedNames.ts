import type { Workbook } from 'exceljs'
import type { RangeRef } from 'fast-formula-parser'
import { parseArea } from '../cells/address'

interface DefinedNamesModel {
  model: { name: string; ranges: string[]; localSheetId?: number }[]
}

/** Resolves a workbook-level defined name (`Sales`) to the area it names, for the formula engine. */
export function definedNameRef(workbook: Workbook, name: string, _sheet: string): RangeRef | undefined {
  const names = (workbook.definedNames as unknown as DefinedNamesModel).model
  const entry = names.find((n) => n.name.toLowerCase() === name.toLowerCase())
  const range = entry?.ranges[0]
  if (!range) return undefined
  const bang = range.lastIndexOf('!')
  if (bang < 0) return undefined
  const sheet = range.slice(0, bang).replace(/^'|'$/g, '').replace(/''/g, "'")
  try {
    const area = parseArea(range.slice(bang + 1).replace(/\$/g, ''))
    return { sheet, from: { row: area.top, col: area.left }, to: { row: area.bottom, col: area.right } }
  } catch {
    return undefined
  }
}
