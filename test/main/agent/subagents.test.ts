import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startAgent } from '../../../src/main/agent/runAgent'
import {
  agentSuite,
  counterToolset,
  run,
  scriptedModel,
  sent,
  sentTools,
  systemPrompt,
  toolMessages,
  workspaceAt,
} from './support'

const suite = agentSuite('bureau-subagent-')

const allText = (request: Parameters<typeof sent>[0]) => JSON.stringify(sent(request))

describe('sub-agents', () => {
  it('composes one delegation line per sub-agent and offers launch/provide tools', async () => {
    const { toolset: counter } = counterToolset()
    suite.llm.push({ text: 'Hi!' })
    await run({
      prompt: 'hello',
      model: scriptedModel(suite.llm),
      toolsets: [counter],
      subagents: [suite.files, counter],
      interactionMode: 'api',
    })
    const system = systemPrompt(suite.llm.requests[0])
    const lines = system.split('\n').filter((line) => line.startsWith('- Delegation to the sub-agent of: '))
    expect(lines).toEqual([
      `- Delegation to the sub-agent of: ${suite.files.summary} (toolset "files")`,
      // The toolset list above gives counter's summary: it is not said twice.
      '- Delegation to the sub-agent of: toolset "counter"',
    ])
    expect(system.split(counter.summary)).toHaveLength(2)
    // The toolset list names only the agent's own toolsets, before the steps block.
    expect(system.indexOf('## Toolsets')).toBeLessThan(system.indexOf('## Steps'))
    expect(system).toContain(`- counter: ${counter.summary}`)
    expect(system).not.toContain(`- files: ${suite.files.summary}`)
    // The agent's own tools first, then the methods of its (single, so open) toolset.
    expect(sentTools(suite.llm.requests[0])).toEqual([
      'done',
      'launch_subagent',
      'provide_subagent_input',
      'counter_touch',
    ])
  })

  it('a sub-agent asks a question, the parent answers without a session id, and it finishes in isolation', async () => {
    const root = await suite.dirs.make()
    const { toolset: counter, disposed } = counterToolset()
    suite.llm.push(
      // parent
      { toolCalls: [{ name: 'counter_touch', arguments: {} }] },
      {
        toolCalls: [
          {
            name: 'launch_subagent',
            arguments: { toolset: 'counter', task: 'Touch the counter, then write a note.' },
          },
        ],
      },
      // child: its own counter instance, then a question
      { toolCalls: [{ name: 'counter_touch', arguments: {} }] },
      { toolCalls: [{ name: 'done', arguments: { question: 'What should the note say?' } }] },
      // parent answers (session auto-selected)
      { toolCalls: [{ name: 'provide_subagent_input', arguments: { input: 'Say SECRET-CHILD-DETAIL' } }] },
      // child finishes
      {
        toolCalls: [
          { name: 'done', arguments: { message: 'Noted: SECRET-CHILD-DETAIL is what you wanted.' } },
        ],
      },
      // parent
      { toolCalls: [{ name: 'done', arguments: { message: 'All done.' } }] },
    )
    const { result, events } = await run({
      prompt: 'PARENT-ONLY-PROMPT: get a note written',
      model: scriptedModel(suite.llm),
      toolsets: [counter],
      subagents: [counter, suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
    })

    expect(result.status).toBe('done')
    expect(result.message).toBe('All done.')
    expect(suite.llm.requests).toHaveLength(7)

    // The question reached the UI as an event and the parent as the tool result.
    const question = events.find((e) => e.type === 'question')
    expect(question).toMatchObject({
      type: 'question',
      toolset: 'counter',
      question: 'What should the note say?',
    })
    const launchResult = JSON.parse(toolMessages(suite.llm.requests[4]).at(-1)?.content ?? '{}')
    expect(launchResult).toMatchObject({
      done: true,
      status: 'waiting',
      question: 'What should the note say?',
    })
    expect(launchResult.sessionId).toBe(question?.type === 'question' ? question.sessionId : undefined)

    // The child has its own context: its task, its tools, not the parent's prompt.
    const child = suite.llm.requests[2]
    expect(allText(child)).toContain('Touch the counter, then write a note.')
    expect(allText(child)).not.toContain('PARENT-ONLY-PROMPT')
    expect(sentTools(child)).toEqual(['counter_touch', 'done'])
    expect(systemPrompt(child)).toContain('You are a sub-agent')
    // Its own toolset instance: the parent's counter is instance 1, the child's instance 2.
    expect(JSON.parse(toolMessages(suite.llm.requests[1])[0]?.content ?? '{}')).toEqual({
      instance: 1,
      touches: 1,
    })
    expect(JSON.parse(toolMessages(suite.llm.requests[3])[0]?.content ?? '{}')).toEqual({
      instance: 2,
      touches: 1,
    })
    // The answer was fed to the waiting child.
    expect(toolMessages(suite.llm.requests[5]).at(-1)?.content).toBe(
      'Answer to your question: Say SECRET-CHILD-DETAIL',
    )

    // Only the result came back to the parent: none of the child's own calls are in its history.
    const parentFinal = suite.llm.requests[6]
    const provideResult = JSON.parse(toolMessages(parentFinal).at(-1)?.content ?? '{}')
    expect(provideResult).toMatchObject({
      done: true,
      status: 'finished',
      result: 'Noted: SECRET-CHILD-DETAIL is what you wanted.',
    })
    expect(toolMessages(parentFinal).map((m) => m.content)).not.toContain(
      JSON.stringify({ instance: 2, touches: 1 }),
    )
    expect(allText(parentFinal)).not.toContain('You are a sub-agent')

    // The child's step is marked as such; resources were released (child when it finished, parent at the end).
    expect(result.steps.filter((s) => s.subagent === 'counter').map((s) => s.method)).toEqual([
      'counter.touch',
    ])
    expect(result.steps.map((s) => s.method)).toContain('agent.launch_subagent')
    expect(disposed).toEqual([2, 1])
  })

  it('the user can answer a waiting sub-agent through the run (chat.answer)', async () => {
    const root = await suite.dirs.make()
    suite.llm.push(
      { toolCalls: [{ name: 'launch_subagent', arguments: { toolset: 'files', task: 'Write a note.' } }] },
      { toolCalls: [{ name: 'done', arguments: { question: 'Which file name?' } }] },
      // the user's answer is applied before the parent's next call: the child continues
      {
        toolCalls: [
          { name: 'files_write_text', arguments: { path: '/user-note.txt', content: 'from the user' } },
        ],
      },
      {
        toolCalls: [
          { name: 'done', arguments: { message: 'Wrote /user-note.txt', attachments: ['/user-note.txt'] } },
        ],
      },
      {
        toolCalls: [
          { name: 'done', arguments: { message: 'Your note is ready.', attachments: ['/user-note.txt'] } },
        ],
      },
    )
    let accepted: boolean | undefined
    const agent = startAgent({
      prompt: 'write a note',
      model: scriptedModel(suite.llm),
      toolsets: [],
      subagents: [suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
      onEvent: (event) => {
        if (event.type === 'question') accepted = agent.answer('/user-note.txt please')
      },
    })
    const result = await agent.result
    expect(accepted).toBe(true)
    expect(result.status).toBe('done')
    expect(result.attachments).toEqual(['/user-note.txt'])
    expect(await readFile(join(root, 'user-note.txt'), 'utf8')).toBe('from the user')
    expect(toolMessages(suite.llm.requests[2]).at(-1)?.content).toBe(
      'Answer to your question: /user-note.txt please',
    )
    const note =
      sent(suite.llm.requests[4])
        .filter((m) => m.role === 'user')
        .at(-1)?.content ?? ''
    expect(note).toContain('The user answered the question of the files sub-agent')
    expect(note).toContain('Wrote /user-note.txt')
    expect(agent.waiting()).toEqual([])
  })

  it("an answer the user gives while the parent is finishing is not lost: the parent's done waits for it", async () => {
    const root = await suite.dirs.make()
    suite.llm.push(
      { toolCalls: [{ name: 'launch_subagent', arguments: { toolset: 'files', task: 'Write a note.' } }] },
      { toolCalls: [{ name: 'done', arguments: { question: 'Which file name?' } }] },
      // The parent relays the question and finishes; the user answers while this reply is on its way.
      {
        delayMs: 400,
        toolCalls: [{ name: 'done', arguments: { message: 'The files agent asks: which file name?' } }],
      },
      { toolCalls: [{ name: 'files_write_text', arguments: { path: '/late.txt', content: 'late answer' } }] },
      {
        toolCalls: [{ name: 'done', arguments: { message: 'Wrote /late.txt', attachments: ['/late.txt'] } }],
      },
      {
        toolCalls: [{ name: 'done', arguments: { message: 'Done: /late.txt', attachments: ['/late.txt'] } }],
      },
    )
    const agent = startAgent({
      prompt: 'write a note',
      model: scriptedModel(suite.llm),
      toolsets: [],
      subagents: [suite.files],
      interactionMode: 'api',
      workspace: workspaceAt(root),
    })
    await suite.llm.waitForRequests(3)
    expect(agent.answer('/late.txt')).toBe(true)
    const result = await agent.result
    expect(result.status).toBe('done')
    expect(result.message).toContain('Done: /late.txt')
    expect(await readFile(join(root, 'late.txt'), 'utf8')).toBe('late answer')
    expect(toolMessages(suite.llm.requests[3]).at(-1)?.content).toBe('Answer to your question: /late.txt')
    const parentAfter = sent(suite.llm.requests[5])
    expect(JSON.stringify(parentAfter)).toContain(
      'Not finished yet: the user has just answered a sub-agent question',
    )
    expect(parentAfter.filter((m) => m.role === 'user').at(-1)?.content).toContain(
      'The user answered the question of the files sub-agent',
    )
  })

  it('provide_subagent_input with nobody waiting, or an unknown sub-agent, is a clear error', async () => {
    suite.llm.push(
      { toolCalls: [{ name: 'provide_subagent_input', arguments: { input: 'x' } }] },
      { toolCalls: [{ name: 'launch_subagent', arguments: { toolset: 'nope', task: 'x' } }] },
      { text: 'ok' },
    )
    const { result } = await run({
      prompt: 'x',
      model: scriptedModel(suite.llm),
      toolsets: [],
      subagents: [suite.files],
      interactionMode: 'api',
    })
    expect(toolMessages(suite.llm.requests[1]).at(-1)?.content).toContain('No sub-agent is waiting')
    expect(toolMessages(suite.llm.requests[2]).at(-1)?.content).toContain(
      'there is no sub-agent "nope". Available: files',
    )
    expect(result.status).toBe('answered')
  })
})
