import { describe, expect, it } from 'vitest'
import { messagesToTask } from '../../../src/main/bridge/chat/messagesToTask'
import type { ChatMessageInput } from '../../../src/main/bridge/chat/requestSchema'
import { BridgeError } from '../../../src/main/bridge/errors'

const failure = (messages: ChatMessageInput[]) => {
  try {
    messagesToTask(messages)
  } catch (error) {
    if (error instanceof BridgeError) return error
    throw error
  }
  throw new Error('expected a BridgeError')
}

describe('messagesToTask', () => {
  it('last user message = task, caller instructions first; earlier user/assistant turns = history', () => {
    const task = messagesToTask([
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: [{ type: 'text', text: 'A1' }] },
      { role: 'assistant', content: null },
      { role: 'system', content: 'Use metric units.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Q2' },
          { type: 'text', text: 'more' },
        ],
      },
    ])
    expect(task.prompt).toBe('Be brief.\n\nUse metric units.\n\nQ2\nmore')
    expect(task.history).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
    ])
    expect(task.files).toEqual([])
  })

  it('collects file parts of every user message, each uploaded file once; data URLs are decoded', () => {
    const task = messagesToTask([
      { role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] },
      { role: 'assistant', content: 'ok' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'compare' },
          { type: 'file', file: { file_id: 'file-1' } },
          { type: 'file', file: { filename: 'b.csv', file_data: 'data:text/csv;base64,YSxiCjEsMg==' } },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
    ])
    expect(task.files).toHaveLength(3)
    expect(task.files[0]).toMatchObject({
      kind: 'id',
      fileId: 'file-1',
      param: 'messages.[0].content.[0].file.file_id',
    })
    expect(task.files[1]).toMatchObject({ kind: 'inline', filename: 'b.csv', mimeType: 'text/csv' })
    expect(Buffer.from((task.files[1] as { bytes: Uint8Array }).bytes).toString()).toBe('a,b\n1,2')
    expect(task.files[2]).toMatchObject({ kind: 'inline', filename: 'image-4.png', mimeType: 'image/png' })
  })

  it('a message with only a file is a valid task', () => {
    const task = messagesToTask([{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-9' } }] }])
    expect(task.prompt).toBe('')
    expect(task.files).toHaveLength(1)
  })

  it('refuses tool traffic, a non-user last message, empty tasks and unusable parts, naming the param', () => {
    expect(
      failure([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ]).param,
    ).toBe('messages')
    expect(
      failure([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function' }] },
        { role: 'user', content: 'b' },
      ]),
    ).toMatchObject({ param: 'messages.[1]', code: 'tools_not_supported', status: 400 })
    expect(failure([{ role: 'user', content: '' }]).param).toBe('messages.[0].content')
    expect(
      failure([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://x/a.png' } }] }])
        .param,
    ).toBe('messages.[0].content.[0].image_url.url')
    expect(failure([{ role: 'user', content: [{ type: 'file', file: {} }] }]).param).toBe(
      'messages.[0].content.[0]',
    )
    expect(
      failure([{ role: 'user', content: [{ type: 'file', file: { file_data: 'not base64 !' } }] }]).param,
    ).toBe('messages.[0].content.[0].file.file_data')
    expect(
      failure([
        { role: 'assistant', content: [{ type: 'file', file: { file_id: 'f' } }] },
        { role: 'user', content: 'x' },
      ]).param,
    ).toBe('messages.[0].content.[0]')
  })
})
