// Automations: prompts that run later, on a schedule, a file or a new mail, without the user. Pure zod
// schemas shared by main (the store, the runner, the toolset, the routes) and the renderer (the page).
import { z } from 'zod'

export const AUTOMATIONS_FILE_VERSION = 1
export const MAX_AUTOMATIONS = 500
/** Runs kept per automation (the oldest go first). */
export const RUNS_KEPT = 50

export const AutomationName = z
  .string()
  .trim()
  .min(1, 'An automation needs a name.')
  .max(100, 'A name is at most 100 characters.')
  .refine((name) => ![...name].some((c) => c.charCodeAt(0) < 32), 'A name cannot hold control characters.')

export const AutomationPrompt = z
  .string()
  .trim()
  .min(1, 'An automation needs a prompt: what should the agent do?')
  .max(20_000, 'A prompt is at most 20,000 characters.')

/** The highest risk a run may call without anyone there; `none` runs only reads the settings allow. */
export const ApprovalLevel = z.enum(['none', 'read', 'write', 'all'])
export type ApprovalLevel = z.infer<typeof ApprovalLevel>

export const ScheduleTrigger = z.object({
  kind: z.literal('schedule'),
  /** A cron expression (5 or 6 fields), or a plain form ("every weekday at 8:00") turned into one when stored. */
  cron: z.string().trim().min(1).max(200),
  /** The plain form the user typed ("every weekday at 8:00"), when there was one. */
  text: z.string().max(200).optional(),
  /** IANA zone the expression is read in (filled with the user's zone when stored). */
  timeZone: z.string().min(1).max(100).optional(),
})

export const FileTrigger = z.object({
  kind: z.literal('file'),
  /** Agent path of a workspace folder. */
  folder: z.string().min(1).max(4096),
  /** Names (or paths below the folder) that start a run; `*` for every file. */
  glob: z.string().min(1).max(500).default('*'),
})

export const MailTrigger = z.object({
  kind: z.literal('mail'),
  /** An account of Settings → E-mail (default: the first). */
  account: z.string().max(100).optional(),
  folder: z.string().min(1).max(500).default('INBOX'),
  /** Part of the sender's address or name, case-insensitive. */
  from: z.string().max(300).optional(),
  /** Part of the subject, case-insensitive. */
  subject: z.string().max(300).optional(),
})

export type ScheduleTrigger = z.infer<typeof ScheduleTrigger>
export type FileTrigger = z.infer<typeof FileTrigger>
export type MailTrigger = z.infer<typeof MailTrigger>

/** Only "run now" (the page, the CLI, the toolset). */
export const ManualTrigger = z.object({ kind: z.literal('manual') })

export const AutomationTrigger = z.discriminatedUnion('kind', [
  ScheduleTrigger,
  FileTrigger,
  MailTrigger,
  ManualTrigger,
])
export type AutomationTrigger = z.infer<typeof AutomationTrigger>

/** Where the answer goes besides the run's own conversation. */
export const AutomationOutput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('conversation') }),
  /** The answer is appended to a workspace file (Markdown), written atomically. */
  z.object({ kind: z.literal('file'), path: z.string().min(1).max(4096) }),
  /**
   * The answer is mailed through the email toolset's `send`, as a call of the run: the automation's
   * approval level applies (sending is an external call).
   */
  z.object({
    kind: z.literal('email'),
    to: z.array(z.string().trim().email().max(320)).min(1).max(20),
    /** The e-mail account (default: the only or default one). */
    account: z.string().min(1).max(100).optional(),
  }),
])
export type AutomationOutput = z.infer<typeof AutomationOutput>

export const Automation = z.object({
  id: z.string().min(1).max(64),
  name: AutomationName,
  prompt: AutomationPrompt,
  /** Toolsets offered to the run (absent: as in chat). */
  toolsets: z.array(z.string().min(1).max(100)).max(100).optional(),
  /** Provider and model (absent: the default provider, as a new conversation). */
  model: z
    .object({ providerId: z.string().min(1).max(64), model: z.string().trim().min(1).max(200).optional() })
    .optional(),
  trigger: AutomationTrigger,
  approve: ApprovalLevel.default('read'),
  output: AutomationOutput.default({ kind: 'conversation' }),
  /** Schedules missed while Bureau was closed: run once at start, or skip them. */
  missed: z.enum(['run-once', 'skip']).default('run-once'),
  maxSteps: z.number().int().min(1).max(200).default(20),
  deadlineMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(10),
  enabled: z.boolean().default(true),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The last scheduled time that was run or skipped (schedules only). */
  lastSlot: z.string().optional(),
})
export type Automation = z.infer<typeof Automation>

/** What a user (or the model, or the CLI) gives to create one; the rest has defaults. */
export const AutomationDraft = Automation.omit({
  id: true,
  createdAt: true,
  updatedAt: true,
  lastSlot: true,
}).extend({ enabled: z.boolean().default(true) })
export type AutomationDraft = z.input<typeof AutomationDraft>

export const RunStatus = z.enum(['running', 'ok', 'failed', 'denied', 'interrupted', 'skipped'])
export type RunStatus = z.infer<typeof RunStatus>

export const RunDecision = z.object({
  call: z.string().max(300),
  risk: z.enum(['read', 'write', 'external']),
  outcome: z.enum(['allowed', 'denied']),
  reason: z.string().max(2000).optional(),
})

export const AutomationRun = z.object({
  id: z.string().min(1).max(64),
  automationId: z.string().min(1).max(64),
  /** What started it: `schedule`, `missed`, `file`, `mail`, `manual`. */
  cause: z.enum(['schedule', 'missed', 'file', 'mail', 'manual']),
  /** The file, the mail or the slot that started it. */
  detail: z.string().max(2000).optional(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  /** `denied`: it ended, but calls were denied (see `denials`). */
  status: RunStatus,
  message: z.string().max(4000).default(''),
  error: z.string().max(2000).optional(),
  conversationId: z.string().max(200).optional(),
  denials: z.array(RunDecision).max(200).default([]),
  steps: z.number().int().min(0).default(0),
  usage: z
    .object({ inputTokens: z.number().int(), outputTokens: z.number().int() })
    .default({ inputTokens: 0, outputTokens: 0 }),
})
export type AutomationRun = z.infer<typeof AutomationRun>

/** `<data-dir>/automations.json`. Loose at the top so keys of a newer Bureau survive. */
export const AutomationsFile = z.looseObject({
  schemaVersion: z.number().int().min(1).default(AUTOMATIONS_FILE_VERSION),
  automations: z.array(Automation).max(MAX_AUTOMATIONS).default([]),
  runs: z.array(AutomationRun).default([]),
})
export type AutomationsFile = z.output<typeof AutomationsFile>

/** One automation as the page lists it. */
export const AutomationSummary = z.object({
  automation: Automation,
  /** ISO times of the next runs (schedules; empty otherwise). */
  nextRuns: z.array(z.string()),
  lastRun: AutomationRun.optional(),
  running: z.boolean(),
  queued: z.number().int(),
})
export type AutomationSummary = z.infer<typeof AutomationSummary>
