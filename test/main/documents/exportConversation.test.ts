import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { exportConversationDocument, type PdfPrintRequest } from '../../../src/main/documents'
import {
  createDocumentBrowser,
  type DocumentBrowser,
} from '../../../src/main/documents/chromium/documentBrowser'
import { printPdf } from '../../../src/main/documents/pdf/printPdf'
import { createWorkspace } from '../../../src/main/workspace'
import type { Conversation } from '../../../src/shared/ipc'
import { describeNeeding } from '../../support/requirements'
import { tempDirs } from '../../support/tempDir'
import { inOrder, pdfText } from './readers'

const dirs = tempDirs('bureau-export-')
// One Chromium for the whole file: starting it is most of an export's time.
let documentBrowser: DocumentBrowser
beforeAll(() => {
  documentBrowser = createDocumentBrowser()
})
afterAll(async () => {
  await documentBrowser.close()
  await dirs.cleanup()
})

const conversation: Conversation = {
  id: 'c1',
  title: 'Budget: review & plan',
  createdAt: '2024-05-01T10:00:00.000Z',
  updatedAt: '2024-05-01T10:05:00.000Z',
  pinned: false,
  messages: [
    {
      id: 'm1',
      role: 'user',
      text: 'Summarise the budget',
      createdAt: '2024-05-01T10:00:00.000Z',
      status: 'done',
      attachments: [],
      steps: [],
      files: [],
    },
    {
      id: 'm2',
      role: 'assistant',
      text: '| Item | EUR |\n|---|---:|\n| Rent | 1200 |\n\n```mermaid\npie title Spend\n  "Rent" : 60\n  "Staff" : 40\n```\n\n```js\nconst total = 1200\n```',
      createdAt: '2024-05-01T10:01:00.000Z',
      status: 'done',
      attachments: [],
      steps: [
        {
          id: 's1',
          method: 'spreadsheet.read_range',
          args: {},
          status: 'ok',
          startedAt: '2024-05-01T10:00:30.000Z',
          durationMs: 42,
        },
      ],
      files: [{ agentPath: '/reports/budget.xlsx', name: 'budget.xlsx' }],
    },
  ],
}

describeNeeding(
  ['pdftotext', 'chromium'],
  'exporting a conversation (Chromium prints, pdftotext reads)',
  () => {
    it('exports the conversation as PDF and DOCX into /exports, with the table, the steps, the code and the diagram', async () => {
      const root = join(await dirs.make(), 'ws')
      const workspace = createWorkspace({ root })
      try {
        const pdf = await exportConversationDocument({
          conversation,
          format: 'pdf',
          workspace,
          documentBrowser,
        })
        expect(pdf.agentPath).toBe('/exports/Budget-review-plan.pdf')
        const text = (await pdfText(join(root, 'exports', 'Budget-review-plan.pdf'))).replace(/\s+/g, ' ')
        expect(
          inOrder(text, [
            'Budget: review & plan',
            'You',
            'Summarise the budget',
            'Bureau',
            'spreadsheet.read_range',
            'Rent',
            '1200',
            'Spend',
            'const total = 1200',
            '/reports/budget.xlsx',
          ]),
        ).toEqual([])
        const docx = await exportConversationDocument({
          conversation,
          format: 'docx',
          workspace,
          messageId: 'm2',
          documentBrowser,
        })
        expect(docx.agentPath).toBe('/exports/Budget-review-plan.docx')
        expect(docx.warnings).toEqual([])
        const again = await exportConversationDocument({
          conversation,
          format: 'docx',
          workspace,
          documentBrowser,
        })
        expect(again.agentPath).toBe('/exports/Budget-review-plan-2.docx')
        await expect(
          exportConversationDocument({
            conversation,
            format: 'pdf',
            workspace,
            messageId: 'nope',
            documentBrowser,
          }),
        ).rejects.toThrow(/not in the conversation/)
      } finally {
        await workspace.close()
      }
    }, 240_000)

    it('prints with the host printer (Electron in the app) when there is one, never starting Chromium', async () => {
      const root = join(await dirs.make(), 'ws')
      const workspace = createWorkspace({ root })
      const requests: PdfPrintRequest[] = []
      try {
        const exported = await exportConversationDocument({
          conversation: { ...conversation, messages: conversation.messages.slice(0, 1) },
          format: 'pdf',
          workspace,
          // A Chromium that cannot start: only the host printer can have made the file.
          browser: {
            executablePath: () => '/nonexistent/chromium',
            printPdf: async (request) => {
              requests.push(request)
              return printPdf(documentBrowser, request.html)
            },
          },
        })
        expect(requests).toHaveLength(1)
        expect(requests[0]?.html).toContain('Summarise the budget')
        expect(requests[0]?.footerTemplate).toContain('pageNumber')
        expect(exported.pages).toBe(1)
        expect(await pdfText(join(root, 'exports', 'Budget-review-plan.pdf'))).toContain(
          'Summarise the budget',
        )
      } finally {
        await workspace.close()
      }
    }, 120_000)
  },
)
