import { readFile } from 'node:fs/promises'
import { describe, expect, it, vi } from 'vitest'
import { fixturePath } from '../../support/fixtures'
import { startIpcHost } from '../../support/ipcHost'
import type { RecordedRequest } from '../../support/scriptedLlm'
import { hostSuite, sent } from './support'

// The `openai` preset (supportsVision: true) pointed at the scripted server.
const suite = hostSuite('bureau-attach-vision-', 'sk-vision-test')
const picture = () => readFile(fixturePath('core', 'scan.jpg'))

const imageUrl = (request: RecordedRequest | undefined) =>
  JSON.stringify(request?.body).match(/"url":"(data:image\/jpeg;base64,[^"]{0,20})/)?.[1]

describe('the app converter with attachments.vision = when-supported', () => {
  it('transcribes an attached picture with the provider, and the convert toolset reads the same result from the shared converter', async () => {
    const host = await startIpcHost({
      dataDir: suite.dataDir,
      workspaceDir: suite.workspaceDir,
      token: 'vision-token',
      events: ['agent.done'],
    })
    try {
      await host.client.invoke('settings.update', { attachments: { vision: 'when-supported' } })
      suite.llm.push(
        { text: 'Invoice 42\n\nTotal: 99 EUR' },
        { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'convert' } }] },
        { toolCalls: [{ name: 'convert_to_markdown', arguments: { path: '/inbox/receipt.jpg' } }] },
        { toolCalls: [{ name: 'done', arguments: { message: 'The total is 99 EUR.' } }] },
      )
      const { runId } = await host.client.invoke('chat.send', {
        text: 'What is the total?',
        attachments: [{ name: 'receipt.jpg', bytes: new Uint8Array(await picture()) }],
      })
      const done = await host.waitForEvent((e) => e.event === 'agent.done' && e.payload.runId === runId)
      expect(done.payload.message).toMatchObject({ status: 'done', text: 'The total is 99 EUR.' })

      // 1: the picture to the model; 2: the agent with the transcription; 3: after open_toolset; 4: after the call.
      expect(suite.llm.requests).toHaveLength(4)
      expect(imageUrl(suite.llm.requests[0])).toMatch(/^data:image\/jpeg;base64,/)
      const user = sent(suite.llm.requests[1]).find((m) => m.role === 'user')?.content ?? ''
      expect(user).toContain('<attachment name="receipt.jpg" path="/inbox/receipt.jpg" format="image"')
      expect(user).toContain('Invoice 42\n\nTotal: 99 EUR')
      expect(imageUrl(suite.llm.requests[1])).toBeUndefined()
      // The toolset was answered by the app's converter from its cache: no second transcription.
      const toolResult = sent(suite.llm.requests[3]).findLast((m) => m.role === 'tool')?.content ?? ''
      expect(toolResult).toContain('Total: 99 EUR')
      expect(toolResult).toContain('"format":"image"')
      expect(host.app.converter).toBeDefined()
    } finally {
      await host.stop()
    }
  })

  it('a provider without supportsVision: the picture is read by OCR, and the chip and the log say why', async () => {
    vi.stubEnv('BUREAU_PROVIDER', 'deepseek')
    const host = await startIpcHost({
      dataDir: suite.dataDir,
      workspaceDir: suite.workspaceDir,
      token: 'vision-token',
      events: ['agent.done', 'chat.attachment'],
    })
    try {
      await host.client.invoke('settings.update', { attachments: { vision: 'when-supported' } })
      suite.llm.push({ text: 'It mentions 5bda1dd6.' })
      const { runId } = await host.client.invoke('chat.send', {
        text: 'What does the picture say?',
        attachments: [{ name: 'shapes.jpg', bytes: new Uint8Array(await picture()) }],
      })
      // Offline OCR takes seconds, more on a busy machine.
      await host.waitForEvent((e) => e.event === 'agent.done' && e.payload.runId === runId, 60_000)
      const converted = host.events.find(
        (e) =>
          e.event === 'chat.attachment' &&
          (e.payload.attachment as { status: string }).status === 'converted',
      )
      expect((converted?.payload.attachment as { warnings?: string[] } | undefined)?.warnings).toEqual([
        'DeepSeek (scripted-model) does not read images (its supportsVision is off); images and scanned pages were read with OCR instead',
      ])
      // One request: the agent's, with the OCR text; the picture never left the machine.
      expect(suite.llm.requests).toHaveLength(1)
      expect(imageUrl(suite.llm.requests[0])).toBeUndefined()
      const user = sent(suite.llm.requests[0]).find((m) => m.role === 'user')?.content ?? ''
      expect(user).toContain('Text recognised in the image (OCR)')
      expect(user).toContain('Delivery note 5521')
    } finally {
      await host.stop()
      vi.stubEnv('BUREAU_PROVIDER', 'openai')
    }
  }, 120_000)
})
