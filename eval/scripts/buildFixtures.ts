// Writes the eval workbooks in eval/fixtures/xlsx (run: npx tsx eval/scripts/buildFixtures.ts).
// The files are committed; this script documents how they were made and rebuilds them the same way.
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ExcelJS from 'exceljs'

const out = fileURLToPath(new URL('../fixtures/xlsx/', import.meta.url))
type Row = (string | number | { formula: string; result: number })[]

async function book(name: string, sheets: Record<string, Row[]>): Promise<void> {
  const wb = new ExcelJS.Workbook()
  wb.creator = 'Bureau eval'
  wb.created = new Date(Date.UTC(2025, 0, 1))
  wb.modified = wb.created
  for (const [sheetName, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(sheetName)
    for (const row of rows) ws.addRow(row)
  }
  await wb.xlsx.writeFile(join(out, name))
}

const regions = ['North', 'South', 'East', 'West', 'Central', 'Islands']
const quarters = [
  [1200, 1350, 1410],
  [980, 1010, 1175],
  [1540, 1490, 1620],
  [760, 820, 905],
  [1320, 1280, 1390],
  [410, 455, 520],
]

const items: [string, number][] = [
  ['Rent', 4200],
  ['Electricity', 380],
  ['Water', 95],
  ['Internet', 120],
  ['Cleaning', 640],
  ['Insurance', 310],
  ['Software', 890],
  ['Phones', 260],
  ['Coffee', 145],
  ['Repairs', 530],
]

const orders: [string, string, number, string][] = [
  ['A-1001', 'Hartley Ltd', 420, 'January'],
  ['A-1002', 'Norris & Co', 1310, 'February'],
  ['A-1003', 'Blue Fern', 275, 'March'],
  ['A-1004', 'Hartley Ltd', 980, 'March'],
  ['A-1005', 'Quay Foods', 1575, 'January'],
  ['A-1006', 'Blue Fern', 640, 'February'],
  ['A-1007', 'Orchard Inc', 1120, 'March'],
  ['A-1008', 'Norris & Co', 310, 'January'],
  ['A-1009', 'Quay Foods', 865, 'March'],
  ['A-1010', 'Orchard Inc', 150, 'February'],
  ['A-1011', 'Hartley Ltd', 1990, 'March'],
  ['A-1012', 'Blue Fern', 505, 'January'],
]

await mkdirAndBuild()

async function mkdirAndBuild(): Promise<void> {
  mkdirSync(out, { recursive: true })
  await book('sales.xlsx', {
    Sales: [['Region', 'Q1', 'Q2', 'Q3'], ...regions.map((r, i) => [r, ...(quarters[i] as number[])])],
  })
  const budgetTotal = items.slice(0, 9).reduce((s, [, v]) => s + v, 0)
  await book('budget.xlsx', {
    Budget: [['Item', 'Cost'], ...items, ['Total', { formula: 'SUM(B2:B10)', result: budgetTotal }]],
  })
  await book('orders.xlsx', { Orders: [['Order', 'Customer', 'Amount', 'Month'], ...orders] })
  await book('monthly.xlsx', {
    Notes: [['Visitors per month at the Harbour Street showroom, counted at the door.']],
    Monthly: [
      ['Month', 'Visitors'],
      ['Jan', 1840],
      ['Feb', 1710],
      ['Mar', 2230],
      ['Apr', 2480],
      ['May', 2905],
      ['Jun', 3120],
    ],
  })
  await book('regions.xlsx', {
    North: [
      ['Date', 'Product', 'Units'],
      ['2025-03-03', 'Kettle', 14],
      ['2025-03-04', 'Toaster', 9],
      ['2025-03-06', 'Blender', 4],
      ['2025-03-07', 'Kettle', 11],
    ],
    South: [
      ['Date', 'Product', 'Units'],
      ['2025-03-03', 'Toaster', 7],
      ['2025-03-05', 'Kettle', 16],
      ['2025-03-06', 'Mixer', 3],
      ['2025-03-07', 'Blender', 8],
      ['2025-03-08', 'Kettle', 12],
    ],
  })
  await book('prices.xlsx', {
    Prices: [
      ['Product', 'Unit', 'Price'],
      ['Paper A4', 'box', 23.5],
      ['Toner black', 'piece', 61.25],
      ['Stapler', 'piece', 8.9],
      ['Folders', 'pack', 12],
      ['Pens blue', 'pack', 4.75],
    ],
  })
  await book('expenses.xlsx', {
    '2024': [
      ['Date', 'Item', 'Amount'],
      ['2024-11-04', 'Train tickets', 86.4],
      ['2024-12-12', 'Hotel Lyon', 214],
    ],
    '2025': [
      ['Date', 'Item', 'Amount'],
      ['2025-01-09', 'Taxi', 32.5],
      ['2025-01-21', 'Conference fee', 450],
    ],
  })
  await book('costs.xlsx', {
    Costs: [
      ['Department', 'Cost'],
      ['Sales', 52000],
      ['Support', 31000],
      ['Engineering', 87000],
      ['Marketing', 30000],
    ],
  })
  await book('restock.xlsx', {
    Restock: [
      ['SKU', 'Product', 'On hand', 'Reorder level'],
      ['PAP-A3-80', 'A3 copy paper, 80 g'],
      ['TNR-HP-26A', 'Toner HP 26A, black'],
      ['ENV-C4-250', 'Envelopes C4, white'],
      ['PEN-BL-50', 'Ballpoint pens, blue'],
    ],
  })
}
