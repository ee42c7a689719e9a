import type { Cell } from 'exceljs'
import { z } from 'zod'
import { method } from '../../tools'
import { cellName, parseCell } from '../cells/address'
import { plainSnapshot } from '../cells/cellValue'
import { invalidInput } from '../errors'
import { AREA_RECEIPT_DOC, AreaReceipt } from '../workbook/receipt'
import { A1Cell, AgentPath, SheetName, type WorkbooksHandle } from './schemas'
import { filledReceipt, openSheet } from './sheetTarget'

const URL_SCHEMES = /^(https?|mailto|ftp|file):/i

/** `Sheet!B2` with the sheet quoted when its name needs it, the form a hyperlink's location takes. */
function locationText(sheet: string, cell: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet)
  return `${plain ? sheet : `'${sheet.replace(/'/g, "''")}'`}!${cell}`
}

/** Splits `Data!A1`, `'My Sheet'!$B$2` or `#Data!A1` into its sheet and cell. */
function parseLocation(location: string): { sheet: string; cell: string } {
  const text = location.trim().replace(/^#/, '')
  const m = /^(?:'((?:[^']|'')+)'|([^!']+))!\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(text)
  if (!m)
    throw invalidInput(
      `location "${location}" is not a sheet and a cell such as Data!A1 or 'My Sheet'!B2 (one cell, not a range)`,
    )
  const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2]!
  return { sheet, cell: `${m[3]!.toUpperCase()}${m[4]}` }
}

export function hyperlinkMethods(workbooks: WorkbooksHandle) {
  return {
    setHyperlink: method({
      description: `Puts a hyperlink in a cell: url (https:, http:, mailto:, ftp: or file:) for a web page, address or file, or location (e.g. Data!A1 or 'My Sheet'!B2) to jump to a cell of this workbook. text is what the cell shows (default: the cell's current text, else the link). The receipt lists the link under hyperlinks. ${AREA_RECEIPT_DOC}`,
      input: z.object({
        path: AgentPath,
        sheet: SheetName,
        cell: A1Cell,
        url: z.string().min(1).optional().describe('e.g. https://example.com/report'),
        location: z.string().min(1).optional().describe('A cell of this workbook, e.g. Data!A1'),
        text: z.string().min(1).optional().describe('What the cell shows'),
        tooltip: z.string().min(1).optional(),
      }),
      output: AreaReceipt,
      risk: 'write',
      examples: [
        { path: '/sales.xlsx', sheet: 'Summary', cell: 'A1', location: 'Data!A1', text: 'Go to data' },
        { path: '/sales.xlsx', sheet: 'Summary', cell: 'A2', url: 'https://example.com' },
      ],
      run: async (args, ctx) => {
        if ((args.url === undefined) === (args.location === undefined))
          throw invalidInput(
            'give either url (a web page, address or file) or location (a cell such as Data!A1)',
          )
        const { open, ws } = await openSheet(workbooks, ctx, args)
        const at = parseCell(args.cell)
        let target: string
        if (args.url !== undefined) {
          const url = args.url.trim()
          if (!URL_SCHEMES.test(url))
            throw invalidInput(
              `url "${args.url}" does not start with https:, http:, mailto:, ftp: or file:; for a cell of this workbook give location (e.g. Data!A1)`,
            )
          target = url
        } else {
          const loc = parseLocation(args.location!)
          const sheet = open.sheet(loc.sheet)
          parseCell(loc.cell)
          target = locationText(sheet.name, loc.cell)
        }
        const cell = ws.getCell(at.row, at.col)
        const current = plainSnapshot(cell.value, open.date1904)
        const shown =
          args.text ??
          (current.kind === 'text' || current.kind === 'number' ? String(current.value) : undefined) ??
          target
        const value: { text: string; hyperlink: string; tooltip?: string } = {
          text: shown,
          hyperlink: target,
        }
        if (args.tooltip) value.tooltip = args.tooltip
        cell.value = value as Cell['value']
        const area = { top: at.row, left: at.col, bottom: at.row, right: at.col }
        open.changed(ws, area, true)
        const receipt = filledReceipt(open, ws, area)
        const stored = ws.findRow(at.row)?.findCell(at.col)?.hyperlink
        if (stored !== target)
          throw invalidInput(`the hyperlink in ${cellName(at.row, at.col)} did not read back as written`)
        return receipt
      },
    }),
  }
}
