import { describe, expect, it } from 'vitest'
import {
  exportFileName,
  parseExportJson,
  toExportJson,
  toMarkdown,
} from '../../../src/shared/chat/conversationExport'
import type { Conversation } from '../../../src/shared/ipc'

const conversation: Conversation = {
  id: 'c1',
  title: 'Budget: Q3 / review',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  pinned: true,
  model: { providerId: 'deepseek', model: 'deepseek-chat' },
  instructions: 'Answer in French.',
  leafId: 'a1b',
  messages: [
    {
      id: 'u1',
      role: 'user',
      text: 'Add a Total column',
      createdAt: '2026-01-01T00:00:00.000Z',
      status: 'done',
      attachments: [{ name: 'sales.xlsx', size: 10, status: 'converted', agentPath: '/inbox/sales.xlsx' }],
      steps: [],
      files: [],
      parentId: null,
    },
    {
      id: 'a1',
      role: 'assistant',
      text: 'First try.',
      createdAt: '2026-01-01T00:00:01.000Z',
      status: 'error',
      error: 'boom',
      attachments: [],
      steps: [],
      files: [],
      parentId: 'u1',
    },
    {
      id: 'a1b',
      role: 'assistant',
      text: 'Done: **E1** is Total.',
      createdAt: '2026-01-01T00:00:02.000Z',
      status: 'done',
      attachments: [],
      steps: [
        {
          id: 's1',
          method: 'spreadsheet.set_cell_value',
          args: { cell: 'E1' },
          status: 'ok',
          result: { sheet: 'Sheet1', range: 'E1', values: [['Total']] },
          startedAt: '2026-01-01T00:00:01.500Z',
        },
      ],
      files: [{ agentPath: '/inbox/sales.xlsx', name: 'sales.xlsx', size: 12 }],
      parentId: 'u1',
    },
  ],
}

describe('conversation export', () => {
  it('JSON round trip keeps every branch, receipt, attachment name, model and instructions', () => {
    const text = toExportJson(conversation, new Date('2026-02-01T00:00:00Z'))
    expect(JSON.parse(text)).toMatchObject({ format: 'bureau-conversation', version: 1 })
    expect(text).not.toContain('bytes')
    expect(parseExportJson(text)).toEqual(conversation)
  })

  it('Markdown has the shown branch with attachments, receipts and returned files', () => {
    const md = toMarkdown(conversation)
    expect(md).toContain('# Budget: Q3 / review')
    expect(md).toContain('## You')
    expect(md).toContain('Attached: sales.xlsx (/inbox/sales.xlsx)')
    expect(md).toContain('`spreadsheet.set_cell_value` ok: {"sheet":"Sheet1","range":"E1"')
    expect(md).toContain('Done: **E1** is Total.')
    expect(md).toContain('Files: sales.xlsx (/inbox/sales.xlsx)')
    // The other version is not on the shown branch.
    expect(md).not.toContain('First try.')
  })

  it('refuses what is not an export, naming the problem', () => {
    expect(() => parseExportJson('{not json')).toThrow(/not JSON/)
    expect(() => parseExportJson('{"format":"other"}')).toThrow(/not a Bureau conversation export at format/)
    const broken = JSON.parse(toExportJson(conversation))
    broken.conversation.messages[0].role = 'robot'
    expect(() => parseExportJson(JSON.stringify(broken))).toThrow(/conversation\.messages\.0\.role/)
  })

  it('file names come from the title without path characters', () => {
    expect(exportFileName(conversation, 'md')).toBe('Budget-Q3-review.md')
    expect(exportFileName({ ...conversation, title: '///' }, 'json')).toBe('conversation.json')
  })
})
