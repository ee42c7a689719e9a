import { z } from 'zod'
import { ToolCallSpec } from '../taskSchema'

/** One evaluation call of an OfficeBench subtask: a checker function and its arguments. */
export const Evaluation = z.object({
  function: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
})
export type Evaluation = z.infer<typeof Evaluation>

/** `tasks/<apps>-<id>/subtasks/<n>.json` (extra keys, like a misplaced "file", are kept out of the checks). */
export const Subtask = z.object({
  username: z.string().min(1),
  date: z.string().min(1),
  weekday: z.string().min(1),
  time: z.string().min(1),
  task: z.string().min(1),
  evaluation: z.array(Evaluation).min(1),
})
export type Subtask = z.infer<typeof Subtask>

/** The project's own solutions of one subtask: a reference and a plausible mistake. */
export const Solution = z.strictObject({
  reference: z.array(ToolCallSpec).min(1).optional(),
  wrong: z.strictObject({ mistake: z.string().min(1), calls: z.array(ToolCallSpec).min(1) }).optional(),
})

/** `eval/officebench/<folder>.json`: the solutions of that task folder's subtasks, by subtask number. */
export const SolutionsFile = z.strictObject({
  subtasks: z.record(z.string().regex(/^\d+$/), Solution),
})
export type SolutionsFile = z.infer<typeof SolutionsFile>

/** `eval/officebench/cannot-pass.json`: subtasks whose own checks can never pass, with the reason. */
export const CannotPassFile = z.record(z.string().regex(/^ob-\d-\d+-\d+$/), z.string().min(1))
