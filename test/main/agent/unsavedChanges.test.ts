import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadSpreadsheetToolset } from '../../../src/main/spreadsheet'
import type { Toolset } from '../../../src/main/tools'
import { agentSuite, run, scriptedModel, toolMessages, workspaceAt } from './support'

const suite = agentSuite('bureau-unsaved-')
let spreadsheet: Toolset
beforeAll(async () => {
  spreadsheet = await loadSpreadsheetToolset()
})

const setA1 = {
  name: 'spreadsheet_set_cell_value',
  arguments: { path: '/book.xlsx', sheet: 'S', cell: 'A1', value: 5 },
}
const done = (message: string) => ({
  toolCalls: [{ name: 'done', arguments: { message, attachments: ['/book.xlsx'] } }],
})

async function workbookAt(root: string): Promise<void> {
  const wb = new ExcelJS.Workbook()
  wb.addWorksheet('S').getCell('A1').value = 1
  await wb.xlsx.writeFile(join(root, 'book.xlsx'))
}

async function cellA1(file: string): Promise<unknown> {
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.readFile(file)
  return wb.worksheets[0]!.getCell('A1').value
}

describe('pending workbook changes are saved before the answer is accepted', () => {
  it('a save that fails is shown to the model, then named in the answer, and the file is not handed back', async () => {
    const root = await suite.dirs.make()
    await workbookAt(root)
    suite.llm.push({ toolCalls: [setA1] }, done('I updated the workbook.'), done('Here is the workbook.'))
    const { result, text } = await run({
      prompt: 'Set A1 to 5',
      model: scriptedModel(suite.llm),
      toolsets: [spreadsheet],
      interactionMode: 'api',
      workspace: workspaceAt(root),
      onEvent: (event) => {
        // The file is replaced by a folder after the edit: the save at `done` must fail.
        if (event.type === 'step' && event.phase === 'finished') {
          rmSync(join(root, 'book.xlsx'))
          mkdirSync(join(root, 'book.xlsx'))
        }
      },
    })
    const firstDone = toolMessages(suite.llm.requests[2]).at(-1)?.content ?? ''
    expect(firstDone).toContain('done: not accepted yet, pending changes could not be saved: /book.xlsx (')
    expect(result.status).toBe('done')
    expect(result.message).toMatch(
      /^Here is the workbook\.\n\nNot saved: \/book\.xlsx \(.+\)\. Nothing was written: what is on disk is as it was before these changes\.$/,
    )
    expect(text).toContain('Not saved: /book.xlsx (')
    expect(result.attachments).toEqual([])
  })

  it('a workbook created in the run is written before done checks its attachments, and handed back', async () => {
    const root = await suite.dirs.make()
    const create = { name: 'spreadsheet_create', arguments: { path: '/new.xlsx', sheet: 'S' } }
    const setNew = { ...setA1, arguments: { ...setA1.arguments, path: '/new.xlsx' } }
    suite.llm.push(
      { toolCalls: [create, setNew] },
      {
        toolCalls: [{ name: 'done', arguments: { message: 'Created.', attachments: ['/new.xlsx'] } }],
      },
    )
    const { result } = await run({
      prompt: 'Make a workbook with 5 in A1',
      model: scriptedModel(suite.llm),
      toolsets: [spreadsheet],
      interactionMode: 'api',
      workspace: workspaceAt(root),
    })
    expect([result.status, result.message, result.attachments]).toEqual(['done', 'Created.', ['/new.xlsx']])
    expect(suite.llm.requests).toHaveLength(2)
    expect(await cellA1(join(root, 'new.xlsx'))).toBe(5)
  })
})
