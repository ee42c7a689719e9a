import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { strFromU8 } from 'fflate'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readPackage } from '../../../src/main/spreadsheet/ooxml/packageParts'
import { itNeeding } from '../../support/itNeeding'
import { findProgram } from '../../support/requirements'
import { createHarness, type Harness } from './harness'

let h: Harness
const P = '/links.xlsx'
const file = () => path.join(h.root, 'links.xlsx')
beforeEach(async () => {
  h = await createHarness()
  await h.call('create', { path: P, sheet: 'Summary' })
  await h.call('add_sheet', { path: P, sheet: 'My Data' })
  await h.call('set_range', { path: P, sheet: 'Summary', start: 'A1', values: [['Report'], ['Data']] })
})
afterEach(async () => h.cleanup())

async function linkAll(): Promise<void> {
  await h.call('set_hyperlink', { path: P, sheet: 'Summary', cell: 'A1', url: 'https://example.com/q3' })
  await h.call('set_hyperlink', {
    path: P,
    sheet: 'Summary',
    cell: 'A2',
    location: "'my data'!$B$3",
    text: 'Go to data',
  })
}

describe('set_hyperlink', () => {
  it('links to a web page or a cell of the workbook; the receipt and get_range show the link', async () => {
    const web = await h.call('set_hyperlink', {
      path: P,
      sheet: 'Summary',
      cell: 'A1',
      url: 'https://example.com/q3',
    })
    expect(web).toEqual({
      sheet: 'Summary',
      range: 'A1',
      rows: 1,
      columns: 1,
      values: [['Report']],
      types: { A1: 'text' },
      hyperlinks: { A1: 'https://example.com/q3' },
    })
    const inside = await h.call('set_hyperlink', {
      path: P,
      sheet: 'Summary',
      cell: 'A2',
      location: "'my data'!$B$3",
      text: 'Go to data',
    })
    expect(inside).toMatchObject({ values: [['Go to data']], hyperlinks: { A2: "'My Data'!B3" } })
    await h.call('save', { path: P })
    await h.newSession()
    const read = await h.call('get_range', { path: P, sheet: 'Summary', range: 'A1:A2', detailed: true })
    expect(read).toMatchObject({
      values: [['Report'], ['Go to data']],
      hyperlinks: { A1: 'https://example.com/q3', A2: "'My Data'!B3" },
    })
  })

  it('writes an internal link as a location in the sheet part', async () => {
    await linkAll()
    await h.call('save', { path: P })
    const parts = readPackage(readFileSync(file()))
    const sheet = strFromU8(parts['xl/worksheets/sheet1.xml']!)
    expect(sheet).toMatch(/<hyperlink ref="A2"[^>]*location="&apos;My Data&apos;!B3"/)
    const rels = strFromU8(parts['xl/worksheets/_rels/sheet1.xml.rels']!)
    expect(rels).toContain('Target="https://example.com/q3"')
    // A link to a cell has no relationship: LibreOffice would follow it as a file named like the cell.
    expect(sheet).not.toMatch(/<hyperlink ref="A2"[^>]*r:id=/)
    expect(rels).not.toContain('My Data')
  })

  it('reads an internal link back from the saved file, as Excel and LibreOffice write it', async () => {
    await linkAll()
    await h.call('save', { path: P })
    await h.call('close', { path: P })
    const read = await h.call('get_range', { path: P, sheet: 'Summary', range: 'A1:A2', detailed: true })
    expect(read).toMatchObject({
      values: [['Report'], ['Go to data']],
      hyperlinks: { A1: 'https://example.com/q3', A2: "'My Data'!B3" },
    })
  })

  it('refuses bad input and leaves the cell as it was', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ url: 'example.com' }, /does not start with https:/],
      [{ location: 'Nowhere!A1' }, /Nowhere/],
      [{ location: 'Summary!A1:B2' }, /one cell, not a range/],
      [{}, /either url .* or location/],
      [{ url: 'https://a.example', location: 'Summary!A1' }, /either url .* or location/],
    ]
    for (const [extra, message] of cases)
      expect(await h.fail('set_hyperlink', { path: P, sheet: 'Summary', cell: 'A1', ...extra })).toMatch(
        message,
      )
    const read = await h.call('get_range', { path: P, sheet: 'Summary', range: 'A1', detailed: true })
    expect(read).not.toHaveProperty('hyperlinks')
    expect(read).toMatchObject({ values: [['Report']] })
  })
})

const PYTHON = findProgram('openpyxl')?.split(' ')[0]

itNeeding(['openpyxl'], "Debian's openpyxl reads both hyperlinks", async () => {
  h = await createHarness()
  await h.call('create', { path: P, sheet: 'Summary' })
  await h.call('add_sheet', { path: P, sheet: 'My Data' })
  await h.call('set_range', { path: P, sheet: 'Summary', start: 'A1', values: [['Report'], ['Data']] })
  await linkAll()
  await h.call('save', { path: P })
  const script = path.join(h.root, 'read.py')
  writeFileSync(
    script,
    'import json, sys, openpyxl\nws = openpyxl.load_workbook(sys.argv[1])["Summary"]\nprint(json.dumps([[c.value, c.hyperlink.target, c.hyperlink.location] for c in (ws["A1"], ws["A2"])]))\n',
  )
  const out = JSON.parse(execFileSync(PYTHON!, [script, file()], { encoding: 'utf8' }))
  expect(out[0]).toEqual(['Report', 'https://example.com/q3', null])
  expect(out[1][0]).toBe('Go to data')
  expect(out[1][2]).toBe("'My Data'!B3")
})
