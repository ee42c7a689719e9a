import { z } from 'zod'
import type { ToolSpec } from '../../llm'

/** The agent's own tools; in both interaction modes they are separate tools, never terminal commands. */
export const DONE_TOOL = 'done'
export const LAUNCH_SUBAGENT_TOOL = 'launch_subagent'
export const PROVIDE_SUBAGENT_INPUT_TOOL = 'provide_subagent_input'

const Paths = z
  .preprocess(
    (value) => {
      if (typeof value !== 'string') return value
      const text = value.trim()
      if (text === '') return []
      if (text.startsWith('[')) {
        try {
          return JSON.parse(text)
        } catch {
          return value
        }
      }
      return text.split(',').map((part) => part.trim())
    },
    z.array(z.string().min(1)),
  )
  .optional()
  .describe('Agent paths of files to give to the user, e.g. ["/reports/summary.docx"].')

export const DoneArgs = z.object({
  message: z.string().describe('The answer or a short account of what you did, for the user.'),
  attachments: Paths,
})

export const SubagentDoneArgs = z
  .object({
    message: z.string().optional().describe('Your result for the agent that gave you the task.'),
    question: z
      .string()
      .optional()
      .describe('Ask this instead of finishing when you cannot go on without an answer.'),
    attachments: Paths,
  })
  .refine((args) => Boolean(args.message?.trim() || args.question?.trim()), {
    message: 'give either "message" (your result) or "question" (what you need to know)',
  })

export const LaunchSubagentArgs = z.object({
  toolset: z.string().min(1).describe('Name of the toolset the sub-agent works with.'),
  task: z
    .string()
    .min(1)
    .describe('The complete task: the sub-agent sees nothing else of this conversation.'),
})

export const ProvideSubagentInputArgs = z.object({
  sessionId: z
    .string()
    .optional()
    .describe('The sub-agent session that asked; may be left out when exactly one is waiting.'),
  input: z.string().min(1).describe('The answer to its question.'),
})

function spec(name: string, description: string, schema: z.ZodType): ToolSpec {
  const parameters = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >
  delete parameters.$schema
  return { name, description, parameters }
}

export function doneSpec(role: 'agent' | 'subagent'): ToolSpec {
  return role === 'agent'
    ? spec(
        DONE_TOOL,
        'Finish the task: the message for the user and the files to give back. Call it once, last.',
        DoneArgs,
      )
    : spec(
        DONE_TOOL,
        'Finish with your result in `message`, or pause with a `question` when you need more information.',
        SubagentDoneArgs,
      )
}

export function subagentSpecs(names: readonly string[]): ToolSpec[] {
  return [
    spec(
      LAUNCH_SUBAGENT_TOOL,
      `Runs a sub-agent with one toolset (${names.join(', ')}) on a self-contained task in its own context. Returns its result, or its question and sessionId.`,
      LaunchSubagentArgs,
    ),
    spec(
      PROVIDE_SUBAGENT_INPUT_TOOL,
      'Answers the question of a waiting sub-agent, which then continues. Returns its result or its next question.',
      ProvideSubagentInputArgs,
    ),
  ]
}
