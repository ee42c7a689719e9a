import type { Worksheet } from 'exceljs'
import { z } from 'zod'
import { method } from '../../tools'
import { type Area, areaName } from '../cells/address'
import { refuseLargeArea } from '../cells/areaLimits'
import { invalidInput } from '../errors'
import type { OpenWorkbook } from '../workbook/openWorkbook'
import { AREA_RECEIPT_DOC, AreaReceipt } from '../workbook/receipt'
import { copyArea } from './editing'
import { A1Range, AgentPath, SheetName, type WorkbooksHandle } from './schemas'
import { areaOnSheet, filledReceipt, openSheet } from './sheetTarget'

/** Copies the first row (down) or column (right) of `area` over the rest of it, formulas shifted. */
function fill(open: OpenWorkbook, ws: Worksheet, area: Area, direction: 'down' | 'right'): Area {
  const down = direction === 'down'
  if (down ? area.top === area.bottom : area.left === area.right)
    throw invalidInput(
      `range ${areaName(area)} has one ${down ? 'row' : 'column'}: give the source ${down ? 'row' : 'column'} and the cells to fill, e.g. ${down ? 'B2:B20' : 'B2:M2'}`,
    )
  refuseLargeArea(ws, area, down ? 'fill_down' : 'fill_right')
  const source = down ? { ...area, bottom: area.top } : { ...area, right: area.left }
  if (down)
    for (let r = area.top + 1; r <= area.bottom; r++)
      copyArea(open, ws, source, ws, { row: r, col: area.left })
  else
    for (let c = area.left + 1; c <= area.right; c++)
      copyArea(open, ws, source, ws, { row: area.top, col: c })
  return area
}

function fillMethod(direction: 'down' | 'right', workbooks: WorkbooksHandle) {
  const down = direction === 'down'
  return method({
    description: `Copies the ${down ? 'top row' : 'left column'} of range (values, formulas and formats) into the rest of it, as a spreadsheet's fill ${direction}: relative references in formulas shift ${down ? 'by row' : 'by column'}, $-anchored ones stay. ${AREA_RECEIPT_DOC}`,
    input: z.object({
      path: AgentPath,
      sheet: SheetName,
      range: A1Range.describe(
        down
          ? 'The source row and the rows below it, e.g. C2:D100'
          : 'The source column and the columns right of it, e.g. B5:M6',
      ),
    }),
    output: AreaReceipt,
    risk: 'write',
    examples: [{ path: '/sales.xlsx', sheet: 'Data', range: down ? 'D2:D20' : 'B5:M5' }],
    run: async (args, ctx) => {
      const { open, ws } = await openSheet(workbooks, ctx, args)
      return filledReceipt(open, ws, fill(open, ws, areaOnSheet(ws, args.range), direction))
    },
  })
}

export function fillMethods(workbooks: WorkbooksHandle) {
  return { fillDown: fillMethod('down', workbooks), fillRight: fillMethod('right', workbooks) }
}
